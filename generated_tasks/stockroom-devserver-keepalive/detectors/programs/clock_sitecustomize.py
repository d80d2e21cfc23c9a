"""A sitecustomize for the delivered dev server: its sleeps and socket timeouts run at scales the judge sets (read as
it goes), and each process's total slept (program) time is recorded, so the devserver's own clock is the measure and
"three failed checks two seconds apart" takes well under a second."""

import os, socket, time
_sleep, _settimeout, _folder = time.sleep, socket.socket.settimeout, os.environ["V3AST_CLOCK"]
def _scale(name):
    try:
        with open(f"{_folder}/{name}") as handle:
            return float(handle.read())
    except (OSError, ValueError):
        return 1.0
def sleep(seconds):
    left = max(0.0, float(seconds))
    while left > 0:
        scale = _scale("sleep")
        step = min(left, 0.02 / scale)
        _sleep(step * scale)
        left -= step
    path = f"{_folder}/{os.getpid()}"
    try:
        with open(path) as handle:
            total = float(handle.read() or 0)
    except (OSError, ValueError):
        total = 0.0
    with open(path, "w") as handle:
        handle.write(str(total + float(seconds)))
def settimeout(self, value):
    return _settimeout(self, None if value is None else value * _scale("timeout"))
time.sleep, socket.socket.settimeout = sleep, settimeout
