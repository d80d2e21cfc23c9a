"""What /proc says about processes and sockets, for judge programs (judge or probe container)."""

from __future__ import annotations

import hashlib
import os


def stat_fields(pid: int | str) -> list[str]:
    """`/proc/PID/stat` after the command name: state, parent, process group, session, …"""
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()


def command_line(pid: int | str) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as handle:
        return handle.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()


def processes(*, skip_mount_namespace: str | None = None) -> dict[int, str]:
    """Live processes (not zombies) → command line; `skip_mount_namespace`: leave out those in that namespace (the
    probe's own)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if skip_mount_namespace and os.readlink(f"/proc/{pid}/ns/mnt") == skip_mount_namespace:
                continue
            if stat_fields(pid)[0] not in "ZX":
                found[int(pid)] = command_line(pid)
        except (OSError, IndexError):
            continue
    return found


def parent_of(pid: int) -> int | None:
    try:
        return int(stat_fields(pid)[1])
    except (OSError, IndexError, ValueError):
        return None


def session_of(pid: int) -> int | None:
    try:
        return int(stat_fields(pid)[3])
    except (OSError, IndexError, ValueError):
        return None


def listening_sockets() -> set[str]:
    """Inodes of TCP sockets listening now (IPv4 and IPv6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as handle:
                found |= {row.split()[9] for row in handle.read().splitlines()[1:] if row.split()[3] == "0A"}
        except OSError:
            continue
    return found


def listeners(pids) -> set[int]:
    """Which of `pids` hold a listening TCP socket."""
    sockets, owners = listening_sockets(), set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:[") and target[8:-1] in sockets:
                    owners.add(pid)
                    break
        except OSError:
            continue
    return owners


def file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None
