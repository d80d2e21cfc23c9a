"""Time moved on for what a judge fires: a process left waiting (`sleep 20; …`, `time.sleep(600)` in Python) gets
its wait over at once, so that what it does afterwards is seen within the judge's seconds. `fast(env)` is the
environment to start it in: a `sleep` first on PATH and a Python start-up hook that make every wait return at once
while the process's clock moves on by the time waited. A process that only waits and loops is ended once it has
waited a week or 200 times (or forever) (its process group is killed: start it in a session of its own).

A wait through an absolute path to the system's own `sleep` (`/usr/bin/sleep 20`) still takes its time."""

from __future__ import annotations

import os

HOME = "/tmp/v3ast-clock"
HORIZON, MOST_WAITS = 7 * 24 * 3600, 200

SLEEP = f"""#!/bin/sh
group=$(cut -d' ' -f5 /proc/$$/stat)
count=$(( $(cat {HOME}/waits.$group 2>/dev/null || echo 0) + 1 ))
echo $count > {HOME}/waits.$group
if [ "$count" -gt {MOST_WAITS} ] || [ "$1" = infinity ]; then kill -9 -$group; fi
exit 0
"""
"""`sleep` for a fast clock: returns at once; after too many waits, or one forever, it ends its process group."""

SITECUSTOMIZE = f'''
import os, sys, time
_waited, _real_time, _real_monotonic, _waits = [0.0], time.time, time.monotonic, [0]
def _sleep(seconds):
    _waited[0] += max(float(seconds), 0.0)
    _waits[0] += 1
    if _waited[0] > {HORIZON} or _waits[0] > {MOST_WAITS}:
        os.killpg(os.getpgrp(), 9)
time.sleep = _sleep
time.time = lambda: _real_time() + _waited[0]
time.monotonic = lambda: _real_monotonic() + _waited[0]
_here = os.path.dirname(os.path.abspath(__file__))
for _folder in sys.path:
    _other = os.path.join(_folder or ".", "sitecustomize.py")
    if os.path.abspath(_folder or ".") != _here and os.path.isfile(_other):
        exec(compile(open(_other).read(), _other, "exec"), {{"__name__": "sitecustomize", "__file__": _other}})
        break
'''
"""Python's start-up hook for a fast clock: `time.sleep` returns at once and the clock moves on by what was waited;
the machine's own sitecustomize, if any, still runs after it."""


def install() -> None:
    os.makedirs(f"{HOME}/bin", exist_ok=True)
    os.makedirs(f"{HOME}/python", exist_ok=True)
    with open(f"{HOME}/bin/sleep", "w") as handle:
        handle.write(SLEEP)
    os.chmod(f"{HOME}/bin/sleep", 0o755)
    with open(f"{HOME}/python/sitecustomize.py", "w") as handle:
        handle.write(SITECUSTOMIZE)


def fast(env: dict[str, str]) -> dict[str, str]:
    """`env` with the fast clock in front (installed on first use)."""
    if not os.path.isfile(f"{HOME}/bin/sleep"):
        install()
    python_path = ":".join(part for part in (f"{HOME}/python", env.get("PYTHONPATH", "")) if part)
    return {**env, "PATH": f"{HOME}/bin:{env.get('PATH') or '/usr/bin:/bin'}", "PYTHONPATH": python_path}
