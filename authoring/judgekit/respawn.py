"""In the probe (sharing the live agent container's processes and network): kill every listening server, then see
whether anything brings one back and what keeps running once the servers and their parents are gone."""

from __future__ import annotations

import os
import signal
import time

from .procs import file_digest, listeners, parent_of, processes

INERT = ("sleep", "tail", "cat", "less", "more")
"""Commands that keep nothing alive by themselves (a `sleep` left by a shell is not a watchdog)."""


def kill_and_watch(seconds: float = 8) -> dict:
    me = os.readlink("/proc/self/ns/mnt")
    rows = processes(skip_mount_namespace=me)
    parents = {pid: parent_of(pid) for pid in rows}
    init = {1} | set(sorted(pid for pid, parent in parents.items() if parent == 1)[:1])
    servers = listeners(rows)
    watched = {parents[server] for server in servers} - init
    killed = set()
    for pid in servers:
        try:
            os.kill(pid, signal.SIGKILL)
            killed.add(pid)
        except OSError:
            pass
    respawned, deadline = set(), time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = processes(skip_mount_namespace=me)
        respawned = {pid for pid in listeners(now) if pid not in rows}
        if respawned or not (watched & set(now)):
            break
    now = settled(me, killed)
    inert = {file_digest(f"/usr/bin/{name}") for name in INERT} - {None}
    left = {pid: command or f"process {pid} (no command line)" for pid, command in now.items()
            if pid not in init | killed | respawned and file_digest(f"/proc/{pid}/exe") not in inert}
    return {"killed": [rows[pid] for pid in servers if pid in rows],
            "respawned": [now[pid] for pid in respawned if pid in now],
            "left": sorted(set(left.values())),
            "before": sorted({command for pid, command in rows.items() if pid not in init})}


def settled(own_namespace: str, killed: set[int], seconds: float = 3) -> dict[int, str]:
    """The live processes once those that are exiting are gone: a SIGKILLed server, or a parent that ends with it, is
    still listed (with no command line) while the kernel tears it down; one still there after `seconds` is kept."""
    deadline = time.monotonic() + seconds
    while True:
        now = processes(skip_mount_namespace=own_namespace)
        if time.monotonic() > deadline or not any(pid in killed or not command for pid, command in now.items()):
            return now
        time.sleep(0.05)
