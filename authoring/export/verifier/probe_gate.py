"""`main`'s first process on a side whose detectors probe the live system (Harbor and Inspect exports).

`main` joins the PID namespace of the trusted `live-probe` sidecar, whose first process (probe_init.py) is the
namespace's init. This gate registers with it, then waits for the engine's stop (a SIGTERM or SIGINT sent from
outside the namespace: si_pid 0; any process of the agent's sends with its own pid), asks the probe to record its
evidence while the agent's processes still live, and ends only when the probe says it is done. It is not dumpable,
so the agent (no CAP_SYS_PTRACE) cannot trace it; killing it stops `main` before any probe: no evidence, no reward.
"""

import ctypes
import os
import signal

PR_SET_DUMPABLE = 4
SI_USER = 0
STOP = {signal.SIGTERM, signal.SIGINT}
ANSWER = signal.SIGUSR2


def from_init(info) -> bool:
    return info is not None and info.si_signo == ANSWER and info.si_pid == 1


def main() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP | {ANSWER, signal.SIGUSR1, signal.SIGHUP})
    while not from_init(signal.sigtimedwait([ANSWER], 0.2)):
        os.kill(1, ANSWER)
    while True:
        info = signal.sigwaitinfo(STOP)
        if info.si_pid == 0 and info.si_code == SI_USER:
            break
    while signal.sigtimedwait([ANSWER], 0) is not None:  # an answer to a repeated registration
        pass
    os.kill(1, signal.SIGUSR1)
    while not from_init(signal.sigwaitinfo([ANSWER])):
        pass


if __name__ == "__main__":
    main()
