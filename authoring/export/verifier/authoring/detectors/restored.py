"""The run's local services brought back inside the verifier for `judge(..., network=True)`.

The agent's environment is gone when Harbor's separate verifier runs, so each service is started again here: the
toolkit's own servicekit, on a loopback address of its own under its hostname, from its seed (shipped in the
verifier's image) and the state its collect hook copied out after the agent was stopped (git repositories,
database). Started for each network judge command and stopped after it; what a command changes in them stays for
the next one, as it does in the toolkit's sidecars.

Run as a program it is one such service: `restored.py KIND ADDRESS SEED STATE`.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

RUNTIME = Path(__file__).resolve().parents[2]
SEEDS = RUNTIME / "seeds"
HOSTS = Path("/etc/hosts")
LOCALHOST = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"
START_SECONDS = 20
GIT_ISOLATION = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
"""The restored git service reads no configuration of the agent's (its /etc and home are in place here)."""


class RestoredServices:
    def __init__(self, services: dict[str, str], collected: Path, scratch: Path):
        self.services, self.collected, self.scratch = services, collected, scratch
        self.running: list[subprocess.Popen] = []
        self.hosts_before: bytes | None = None

    def state(self, hostname: str) -> Path:
        """The service's state for this verifier run, copied from the collected one on first use."""
        folder = self.scratch / hostname
        if not folder.is_dir():
            folder.mkdir(parents=True)
            source = self.collected / hostname
            if (source / "git").is_dir():
                shutil.copytree(source / "git", folder / "git", symlinks=True)
            if (source / "app.db").is_file():
                shutil.copy2(source / "app.db", folder / "app.db")
            for path in [folder, *folder.rglob("*")]:  # served as root: no repository of another owner
                os.lchown(path, 0, 0)
        return folder

    def __enter__(self) -> RestoredServices:
        addresses = {host: f"127.0.1.{number}" for number, host in enumerate(sorted(self.services), start=1)}
        try:
            for host, address in addresses.items():
                seed = SEEDS / host
                state = self.state(host)
                with open(state.parent / f"{host}.log", "wb") as log:
                    self.running.append(subprocess.Popen(
                        [sys.executable, "-I", "-S", __file__, self.services[host], address, str(seed), str(state)],
                        stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL))
            for host, process in zip(addresses, self.running, strict=True):
                if not _ready(process):
                    said = (self.scratch / f"{host}.log").read_text(errors="replace").strip()
                    raise RuntimeError(f"restored service {host} did not start: {said[-300:]}")
            self.hosts_before = HOSTS.read_bytes()
            HOSTS.write_text(LOCALHOST + "".join(f"{a}\t{h} {h.split('.')[0]}\n" for h, a in addresses.items()))
        except BaseException:
            self.__exit__()
            raise
        return self

    def pids(self) -> list[int]:
        return [process.pid for process in self.running]

    def __exit__(self, *_) -> None:
        for process in self.running:
            process.kill()
            process.wait()
        self.running = []
        if self.hosts_before is not None:
            HOSTS.write_bytes(self.hosts_before)
            self.hosts_before = None


def _ready(process: subprocess.Popen) -> bool:
    if process.stdout is None:
        return False
    readable, _, _ = select.select([process.stdout], [], [], START_SECONDS)
    return bool(readable) and b"listening" in process.stdout.readline()


def serve(kind: str, address: str, seed: str, state: str) -> None:
    sys.path.insert(0, str(RUNTIME))
    from authoring.sandbox.services import servicekit

    os.environ.update(GIT_ISOLATION)
    real_run = subprocess.run
    def isolated_run(argv, *args, env=None, **options):
        return real_run(argv, *args, env=None if env is None else {**env, **GIT_ISOLATION}, **options)

    # the sidecar's git runs isolated here, and the service's home is the scratch state
    servicekit.subprocess = SimpleNamespace(run=isolated_run)  # type: ignore[assignment]
    servicekit.pwd = SimpleNamespace(  # type: ignore[assignment]
        getpwuid=lambda uid: SimpleNamespace(pw_dir=state), getpwnam=None)
    servicekit.SEED, servicekit.GIT_ROOT, servicekit.DATA_ROOT = seed, f"{state}/git", state
    servicekit.DB_PATH, servicekit.EVENTS = f"{state}/app.db", f"{state}/events.jsonl"
    servicekit.open_events()
    servicekit.PREPARE.get(kind, lambda: None)()
    servicekit.ROUTES.extend(servicekit.load_routes() if kind == "api" else [])
    servicekit.Handler.kind = kind
    server = servicekit.ThreadingHTTPServer((address, 80), servicekit.Handler)
    server.daemon_threads = True
    print(servicekit.READY_LINE, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve(*sys.argv[1:5])
