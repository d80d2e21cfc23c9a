"""The `live-probe` sidecar's first process: init of the PID namespace `main` joins (see probe_gate.py).

The first process to register (SIGUSR2) is `main`'s gate: `main` starts after this container, and the agent's
commands only after `main`. When that gate (same pid, same start time) signals the engine's stop (SIGUSR1), the side's
detectors are run once in record mode (verify.py --record-probes): each `ctx.probe` command runs in the live agent's
network namespace with this container's trusted filesystem and is written to /evidence/probe/probes.json, which the
verifier replays. Then the gate is released and `main` stops. Signals from any other process are ignored.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORD_SECONDS = 540


def start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def record(gate: int) -> None:
    try:
        done = subprocess.run(["/usr/bin/python3", "-I", "-S", "-u", str(HERE / "verify.py"), "--record-probes",
                               str(gate)], timeout=RECORD_SECONDS, stdin=subprocess.DEVNULL)
        print(f"v3ast probe: recorded (exit {done.returncode})", file=sys.stderr, flush=True)
    except subprocess.TimeoutExpired:
        print("v3ast probe: recording timed out, no probe evidence", file=sys.stderr, flush=True)


def main() -> None:
    watched = {signal.SIGUSR1, signal.SIGUSR2, signal.SIGCHLD, signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    gate: tuple[int, str | None] | None = None
    recorded = False
    while True:
        info = signal.sigwaitinfo(watched)
        sender = info.si_pid
        if info.si_signo == signal.SIGCHLD:
            reap()
        elif info.si_signo in (signal.SIGTERM, signal.SIGINT) and sender == 0:
            return
        elif info.si_signo == signal.SIGUSR2 and gate is None and sender > 1:
            gate = (sender, start_time(sender))
            os.kill(sender, signal.SIGUSR2)
        elif (info.si_signo == signal.SIGUSR1 and gate is not None and not recorded and sender == gate[0]
              and start_time(sender) == gate[1]):
            recorded = True
            record(sender)
            os.kill(sender, signal.SIGUSR2)
            reap()


if __name__ == "__main__":
    main()
