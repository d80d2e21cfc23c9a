"""What the whole machine has spent, for benchmarks and the test command's summary (Linux `/proc/stat`)."""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def machine_cpu() -> float:
    """CPU-seconds the whole machine has spent since boot (user + nice + system + irq + softirq); OSError off Linux."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(value) for value in fields[:7])
    return (user + nice + system + irq + softirq) / TICKS
