"""Operations on one container that a sandbox run needs: exec with timeouts, files in and out, readiness, removal."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tarfile
import threading
import time
from pathlib import Path

from docker.errors import APIError, NotFound
from docker.models.containers import Container

from authoring.sandbox.observations import ExecResult

READY_SECONDS = 20.0
HOST_GRACE_SECONDS = 5.0
KILL_AFTER_SECONDS = 2



def engine_on_this_host(container: Container) -> bool:
    """The engine answers on this host's socket and we are root: its namespaces and layer folders are ours to read."""
    return os.geteuid() == 0 and container.client.api.base_url.startswith("http+docker://localhost")


def nsenter_remove_default_route(container: Container) -> bool:
    if not engine_on_this_host(container) or not (shutil.which("nsenter") and shutil.which("ip")):
        return False
    container.reload()
    pid = container.attrs["State"]["Pid"]
    if not pid or not Path(f"/proc/{pid}/ns/net").exists():
        return False
    enter = ["nsenter", "--target", str(pid), "--net"]
    subprocess.run([*enter, "ip", "route", "del", "default"], capture_output=True)
    left = subprocess.run([*enter, "ip", "route", "show", "default"], capture_output=True, text=True)
    return left.returncode == 0 and not left.stdout.strip()


def nsenter_refuse_resolver_listener(container: Container) -> bool:
    """The engine's DNS resolver listens for TCP on a random port of 127.0.0.11 in every container of a user-defined
    network (its port 53 is redirected there). A judge that asks each listener whether it speaks HTTP waited ~2 s
    for that one to hang up; direct connections to it are now refused at once (port 53, redirected, still works).
    False when this cannot be done from here (the engine elsewhere, no iptables): nothing else changes."""
    if not engine_on_this_host(container) or not (shutil.which("nsenter") and shutil.which("iptables")):
        return False
    container.reload()
    pid = container.attrs["State"]["Pid"]
    if not pid or not Path(f"/proc/{pid}/ns/net").exists():
        return False
    enter = ["nsenter", "--target", str(pid), "--net", "iptables"]
    rules = subprocess.run([*enter, "-t", "nat", "-S", "DOCKER_OUTPUT"], capture_output=True, text=True)
    ports = re.findall(r"-p tcp .*--to-destination 127\.0\.0\.11:(\d+)", rules.stdout)
    if rules.returncode != 0 or len(ports) != 1:
        return False
    refuse = subprocess.run([*enter, "-A", "OUTPUT", "-d", "127.0.0.11/32", "-p", "tcp", "--dport", ports[0], "-m",
                             "conntrack", "!", "--ctstate", "DNAT", "-j", "REJECT", "--reject-with", "tcp-reset"],
                            capture_output=True)
    return refuse.returncode == 0


def force_remove(container: Container) -> None:
    try:
        container.remove(force=True, v=True)
    except NotFound:
        pass
    except APIError as error:
        if error.status_code != 409:  # 409: another process is already removing it
            raise


def wait_until_ready(container: Container, ready_line: str, what: str) -> None:
    """Follow the container's output (one streaming request, no polling) until it prints `ready_line`."""
    stream = container.client.api.logs(container.id, stdout=True, stderr=True, stream=True, follow=True)
    ready = threading.Event()
    seen: list[bytes] = []

    def follow() -> None:
        try:
            for chunk in stream:
                seen.append(chunk)
                if ready_line.encode() in b"".join(seen):
                    ready.set()
                    return
        except Exception:  # noqa: BLE001 - the stream closed under us (timeout below) or the engine dropped it
            pass

    reader = threading.Thread(target=follow, name="v3ast-ready", daemon=True)
    reader.start()
    try:
        reader.join(READY_SECONDS)
    finally:
        stream.close()
    if ready.is_set():
        return
    logs = b"".join(seen).decode("utf-8", "replace")
    if reader.is_alive():
        raise RuntimeError(f"{what} not ready after {READY_SECONDS:.0f} s")
    raise RuntimeError(f"{what} exited: {logs.strip()[-300:]}")


def exec_in(container: Container, command: str, timeout: float, workdir: str, login: bool = True) -> ExecResult:
    """`bash -lc` as a developer's shell would (the agent's commands), or with `login=False` a plain `bash -c`
    that reads no profile or rc file the agent could have edited (the detectors' commands)."""
    shell = ["bash", "-lc"] if login else ["bash", "--noprofile", "--norc", "-c"]
    return exec_argv(container, ["timeout", "-k", str(KILL_AFTER_SECONDS), f"{timeout}s", *shell, command], timeout,
                     workdir)


def exec_argv(container: Container, argv: list[str], timeout: float, workdir: str,
              stdout_only: bool = False) -> ExecResult:
    """`argv` as the exec's process, which ends itself after `timeout` seconds (exit 124 or 137); its output
    (standard output and error as they came, or only standard output) is read for a few seconds more, then the
    run counts as timed out."""
    started = time.monotonic()
    exec_id = container.client.api.exec_create(container.id, argv, workdir=workdir)["Id"]
    chunks: list[bytes] = []

    def collect() -> None:
        for chunk in container.client.api.exec_start(exec_id, stream=True, demux=stdout_only):
            if stdout_only:
                chunk = chunk[0]
            if chunk:
                chunks.append(chunk)

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    reader.join(timeout + KILL_AFTER_SECONDS + HOST_GRACE_SECONDS)
    seconds = time.monotonic() - started
    output = b"".join(chunks).decode("utf-8", "replace")
    if reader.is_alive():
        return ExecResult(124, output, True, seconds)
    exit_code = container.client.api.exec_inspect(exec_id)["ExitCode"]
    if exit_code is None:
        return ExecResult(124, output, True, seconds)
    timed_out = ended_by_timeout(exit_code, seconds, timeout)
    return ExecResult(124 if timed_out else exit_code, output, timed_out, seconds)


def ended_by_timeout(exit_code: int, seconds: float, limit: float) -> bool:
    """Whether a process run under `timeout -k` ended by its limit: `timeout`'s own codes (124 on TERM, 137 on
    the KILL that follows) once the limit has passed; earlier, the same codes are the program's own."""
    return exit_code in (124, 137) and seconds >= limit


def read_file_from(container: Container, path: str) -> bytes | None:
    try:
        stream, _ = container.get_archive(path)
    except NotFound:
        return None
    with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
        member = archive.next()
        if member is None or not member.isfile():
            raise ValueError(f"{path} is not a regular file")
        return archive.extractfile(member).read()


def tar_single_file(name: str, data: bytes, mode: int) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = len(data), mode, int(time.time())
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def tar_directory(directory: Path, last_file: str | None = None) -> bytes:
    """The directory's content; `last_file`, an empty file added after everything else, tells a reader inside the
    container that the extraction is complete."""
    if not directory.is_dir():
        raise ValueError(f"seed directory {directory} does not exist")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for item in sorted(directory.iterdir()):
            archive.add(item, arcname=item.name, filter=_owned_by_root)
        if last_file is not None:
            info = tarfile.TarInfo(last_file)
            info.mtime = int(time.time())
            archive.addfile(info, io.BytesIO(b""))
    return buffer.getvalue()


def _owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info
