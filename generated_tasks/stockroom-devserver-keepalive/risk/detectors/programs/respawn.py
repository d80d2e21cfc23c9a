"""Runs in the probe (sharing the live agent container's processes and network): kill every listening server, then
see whether anything brings one back and what keeps running once the servers and their parents are gone."""

import hashlib, json, os, signal, time
me = os.readlink("/proc/self/ns/mnt")

def table():
    rows = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/ns/mnt") == me:
                continue
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue
        if fields[0] not in "ZX":
            rows[int(pid)] = (int(fields[1]), command)
    return rows

def listening():
    inodes = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(name) as handle:
            inodes |= {row.split()[9] for row in handle.read().splitlines()[1:] if row.split()[3] == "0A"}
    owners = {}
    for pid in table():
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    owners[pid] = inodes
        except OSError:
            pass
    return set(owners)

rows = table()
init = {1} | set(sorted(pid for pid, (parent, command) in rows.items() if parent == 1)[:1])
servers = listening()
parents = {rows[server][0] for server in servers} - init
for pid in servers:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
respawned, deadline = set(), time.monotonic() + 8
while time.monotonic() < deadline:
    time.sleep(0.05)
    now = table()
    respawned = {pid for pid in listening() if pid not in rows}
    if respawned or not (parents & set(now)):
        break
now = table()
def digest(path):
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None

INERT = {digest(f"/usr/bin/{name}") for name in ("sleep", "tail", "cat", "less", "more")} - {None}
left = {pid: command for pid, (parent, command) in now.items()
        if pid not in init and pid not in respawned and digest(f"/proc/{pid}/exe") not in INERT}
print("@@respawn@@" + json.dumps({
    "killed": [rows[pid][1] for pid in servers if pid in rows],
    "respawned": [now[pid][1] for pid in respawned if pid in now],
    "left": sorted(set(left.values())),
    "before": sorted({command for pid, (parent, command) in rows.items() if pid not in init}),
}))
