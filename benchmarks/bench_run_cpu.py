"""Where a reference run's CPU goes: CPU-seconds per run by who spent them, on a quiet machine.

Runs reference paths one at a time (one worker, images warm) and, while they run, reads every container's CPU
from its cgroup (cgroup v1 `cpuacct`, the engine's `cgroupfs` driver) every 20 ms, naming it by its `v3ast.role`
label: the agent's box, each sidecar, the judge containers, the freeze's trusted helpers. Beside them: this
process (the runner, in-process), the engine's daemons (dockerd, containerd and their shims, runc) and whatever
else the machine spent (`/proc/stat`), so the parts add up to the machine's total. A container that ends between two
reads loses at most its last 20 ms (shown as "ended between two reads"); containers of other processes are shown
apart, and the machine should be quiet. Run by hand:
python benchmarks/bench_run_cpu.py [PAIR …] [--per-pair N] [--no-record]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")

from bench_validate import spread  # this folder is on sys.path
from docker.errors import NotFound
from results import invocation, recording

from authoring.machine_cpu import TICKS, machine_cpu
from authoring.pairs.format import SideKind, load_pair, load_pairs
from authoring.pairs.runner import side_image
from authoring.pairs.validate import check_reference, reference_jobs
from authoring.sandbox.base_image import BASE_IMAGE
from authoring.sandbox.daemon import connect
from authoring.sandbox.session import ROLE_LABEL
from authoring.sandbox.teardown import OWNER_LABEL, drain_teardowns, this_owner

ROOT = Path(__file__).resolve().parents[1]
CPUACCT = Path("/sys/fs/cgroup/cpuacct/docker")
ENGINE = ("dockerd", "containerd", "containerd-shim", "containerd-shim-runc-v2", "runc", "docker-proxy", "docker-init")


def engine_cpu() -> float:
    """CPU-seconds of the engine's processes alive now, with their reaped children (runc is reaped by a shim)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        if name in ENGINE:
            fields = stat[stat.rindex(")") + 2:].split()
            total += sum(int(value) for value in fields[11:15]) / TICKS  # utime stime cutime cstime
    return total


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


class ContainerCpu:
    """Every container's CPU, read from its cgroup while it lives, named by its role label."""

    def __init__(self, client) -> None:
        self.client = client
        self.seen: dict[str, float] = {}
        self.roles: dict[str, str] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> ContainerCpu:
        self.start_total = self._total()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join()
        self.end_total = self._total()

    @staticmethod
    def _total() -> float:
        return int((CPUACCT / "cpuacct.usage").read_text()) / 1e9

    def _role(self, container_id: str) -> str:
        try:
            labels = self.client.containers.get(container_id).labels
        except NotFound:
            return "unknown (gone before it was named)"
        if labels.get(OWNER_LABEL) != this_owner():
            return "another process's"
        role = labels.get(ROLE_LABEL, "unlabelled")
        return "service" if role.startswith("service:") else role

    def _poll(self) -> None:
        while not self.stopping.wait(0.02):
            for folder in CPUACCT.iterdir():
                if not folder.is_dir():
                    continue
                try:
                    usage = int((folder / "cpuacct.usage").read_text()) / 1e9
                except OSError:
                    continue
                if folder.name not in self.seen:
                    self.roles[folder.name] = self._role(folder.name)
                self.seen[folder.name] = usage

    def by_role(self) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        for container_id, usage in self.seen.items():
            totals[self.roles[container_id]] += usage
        totals["ended between two reads"] = max(0.0, self.end_total - self.start_total - sum(totals.values()))
        return dict(totals)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pairs", nargs="*", help="pair ids (default: every pair)")
    parser.add_argument("--per-pair", type=int, default=3, help="reference paths per pair, spread over its list")
    parser.add_argument("--no-record", action="store_true", help="print only (benchmarks/results/ left as it is)")
    arguments = parser.parse_args()
    if not CPUACCT.is_dir():
        raise SystemExit(f"no {CPUACCT}: this benchmark reads cgroup v1 cpuacct (the engine's cgroupfs driver)")
    client = connect()
    pairs = ([load_pair(ROOT / "generated_tasks" / pair_id) for pair_id in arguments.pairs] if arguments.pairs
             else load_pairs(ROOT / "generated_tasks"))
    jobs = [job for pair in pairs for job in spread(reference_jobs(pair), arguments.per_pair)]
    for pair in pairs:
        for kind in SideKind:
            side_image(client, pair.side(kind), BASE_IMAGE)
    drain_teardowns()
    print(f"{len(jobs)} reference runs ({arguments.per_pair} per pair) of {len(pairs)} pairs, one worker, "
          f"images warm; load before: {os.getloadavg()[0]:.2f}")
    wall, failures = [], 0
    per_pair: dict[str, list[float]] = defaultdict(list)
    machine0, engine0, own0 = machine_cpu(), engine_cpu(), own_cpu()
    started = time.perf_counter()
    with ContainerCpu(client) as containers:
        for pair, kind, reference in jobs:
            before = machine_cpu()
            check = check_reference(client, pair, kind, reference, BASE_IMAGE)
            drain_teardowns()  # each run's teardown counts to it
            per_pair[pair.id].append(machine_cpu() - before)
            failures += not check.passed
            if check.run:
                wall.append(check.run.seconds)
    elapsed = time.perf_counter() - started
    machine = machine_cpu() - machine0
    parts = {f"container: {role}": seconds for role, seconds in containers.by_role().items()}
    parts["this process (runner, docker API client)"] = own_cpu() - own0
    parts["engine: dockerd, containerd, shims, runc"] = engine_cpu() - engine0
    parts["everything else on the machine"] = max(0.0, machine - sum(parts.values()))
    runs = len(jobs)
    print(f"{runs} runs in {elapsed:.1f} s wall ({failures} not as expected), "
          f"median run {statistics.median(wall):.2f} s")
    print(f"machine CPU: {machine:.1f} CPU-s, {machine / runs:.2f} CPU-s per run ({machine / elapsed:.2f} cores busy)")
    for name, seconds in sorted(parts.items(), key=lambda item: -item[1]):
        print(f"  {name:45s} {seconds / runs:6.2f} CPU-s per run  {seconds / machine:6.1%}")
    print(f"containers per run: {len(containers.seen) / runs:.1f}")
    costly = sorted(((statistics.median(values), pair) for pair, values in per_pair.items()), reverse=True)
    print("machine CPU-s per run by pair (median): " + ", ".join(f"{pair} {cpu:.1f}" for cpu, pair in costly))


if __name__ == "__main__":
    if "--no-record" in sys.argv:
        main()
    else:
        with recording(invocation()):
            main()
