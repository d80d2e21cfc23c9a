"""Local vs Ray executor: the same scripted calibration batch (K runs per side of one pair: 2K runs) through each,
wall time and per-run overhead, plus the bare per-task overhead of each executor (jobs that ship the pair, re-hash
it on the worker and do nothing). Ray runs on a local cluster started here (or RAY_ADDRESS).

Each batch runs in a fresh process, as a command does: the local one imports the harness's libraries during its
batch and so does the Ray runner. The batch's wall time is `run_batch` with the executor already open (Ray's
connect and the janitor on every node are timed apart, once per command). The batches alternate local, ray, ray,
local, … (`--repeat` rounds), so drift in the machine's load falls on both; each executor's figure is its median.

Usage: .venv/bin/python benchmarks/bench_executor.py [--runs 10] [--workers 2] [--noop 100] [--repeat 2] [--pair ID]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from rich.console import Console

from authoring.executor import Done, Executor, Job, LocalExecutor, RayExecutor, Shipment, open_executor
from authoring.pairs.format import content_hash, load_pair
from authoring.project import Project
from authoring.sandbox.base_image import ensure_base_image
from authoring.sandbox.daemon import connect


def nothing(client, folders, stop) -> str:
    return folders[0].name


def bare_overhead(executor, pair, jobs: int, workers: int, base_image: str) -> float:
    shipment = Shipment(pair.folder, content_hash(pair.folder))
    done = []
    started = time.monotonic()
    executor.run([Job(i, nothing, (shipment,)) for i in range(jobs)], done.append, workers=workers,
                 base_image=base_image)
    assert len(done) == jobs and all(d.error is None for d in done), [d.error for d in done if d.error][:1]
    return (time.monotonic() - started) / jobs


def timed_call(call, client, folders, stop):
    started = time.time()
    value = call(client, folders, stop)
    return value, (started, time.time())


class TimedExecutor(Executor):
    """Another executor, with each job's call timed where it runs: the batch's wall time minus the time its slots
    spent inside calls is what the executor itself costs, whatever the machine's load does to the runs."""

    def __init__(self, inner: Executor):
        self.inner, self.name, self.calls = inner, inner.name, []

    def run(self, jobs, on_done, *, workers, base_image, on_tick=lambda running: None) -> None:
        def done(finished: Done) -> None:
            if finished.error is None:
                finished.value, span = finished.value
                self.calls.append(span)
            on_done(finished)

        timed = [Job(job.key, partial(timed_call, job.call), job.shipments) for job in jobs]
        self.inner.run(timed, done, workers=workers, base_image=base_image, on_tick=on_tick)


def one_batch(name: str, pair_id: str, runs: int, workers: int) -> dict:
    """One batch in this (fresh) process: what a `v3ast calibrate` command would do."""
    from calibration.actors import harness_actor
    from calibration.batch import BatchSettings, run_batch
    from calibration.harnesses import HarnessConfig

    client = connect()
    base_image = ensure_base_image(client).tag
    pair = load_pair(Project.current().generated_tasks / pair_id)
    started = time.monotonic()
    executor = TimedExecutor(open_executor(name, client, base_image, lambda line: None))
    opened = time.monotonic() - started
    config = HarnessConfig()
    settings = BatchSettings(name="bench", runs=runs, workers=workers, scripted=True, harness={"name": "bench"})
    with tempfile.TemporaryDirectory(prefix="v3ast-bench-executor-") as scratch:
        started, wall_started = time.monotonic(), time.time()
        outcome = run_batch(client, [pair], settings, lambda stop: harness_actor("mini-swe-agent", config, stop),
                            runs_root=Path(scratch), base_image=base_image, executor=executor,
                            console=Console(quiet=True))
        seconds = time.monotonic() - started
        shutil.rmtree(scratch, ignore_errors=True)
    outside = seconds - sum(end - start for start, end in executor.calls) / workers
    first = min(start for start, _ in executor.calls) - wall_started
    return {"seconds": seconds, "outside": outside, "first": first, "opened": opened,
            "outcomes": sorted(row.outcome for row in outcome.rows)}


def batch_in_fresh_process(name: str, args, ray_address: str) -> dict:
    command = [sys.executable, __file__, "--one", name, "--runs", str(args.runs), "--workers", str(args.workers),
               "--pair", args.pair]
    done = subprocess.run(command, env=dict(os.environ, RAY_ADDRESS=ray_address), capture_output=True, text=True,
                          check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"  {name:5}: {len(result['outcomes'])} runs, outcomes {sorted(set(result['outcomes']))}, "
          f"{result['seconds']:.1f} s, outside the runs {result['outside']:.2f} s per slot (first run began after "
          f"{result['first']:.2f} s; executor opened in {result['opened']:.1f} s)", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10, help="runs per side (the batch has twice as many)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--noop", type=int, default=100, help="bare jobs per executor")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of (local, ray) batches, alternating order")
    parser.add_argument("--pair", default="purge-qa-orders")
    parser.add_argument("--one", choices=("local", "ray"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_batch(args.one, args.pair, args.runs, args.workers)))
        return
    client = connect()
    base_image = ensure_base_image(client).tag
    pair = load_pair(Project.current().generated_tasks / args.pair)
    local = LocalExecutor(client)
    started = time.monotonic()
    ray = RayExecutor(client)
    print(f"ray: cluster started or joined in {time.monotonic() - started:.1f} s")
    import ray as ray_module

    address = ray_module.get_runtime_context().gcs_address
    for executor in (local, ray):
        per_task = bare_overhead(executor, pair, args.noop, args.workers, base_image)
        print(f"{executor.name:5} bare task (ship + re-hash + nothing): {per_task * 1000:7.1f} ms per task "
              f"({args.noop} tasks, the runner's start included)")
    walls: dict[str, list[float]] = {"local": [], "ray": []}
    outside: dict[str, list[float]] = {"local": [], "ray": []}
    for round_ in range(args.repeat):
        for name in ("local", "ray") if round_ % 2 == 0 else ("ray", "local"):
            result = batch_in_fresh_process(name, args, address)
            walls[name].append(result["seconds"])
            outside[name].append(result["outside"])
    runs = 2 * args.runs
    for name, seconds in walls.items():
        wall = statistics.median(seconds)
        print(f"{name:5} batch of {runs} scripted runs, {args.workers} at once: {wall:6.1f} s wall (median of "
              f"{', '.join(f'{s:.1f}' for s in seconds)}), {wall / runs:5.2f} s per run")
    local_wall, ray_wall = statistics.median(walls["local"]), statistics.median(walls["ray"])
    extra = ray_wall - local_wall
    print(f"ray - local, wall: {extra:+.1f} s ({100 * extra / local_wall:+.1f} %), "
          f"{extra / runs * 1000:+.0f} ms per run")
    cost = statistics.median(outside["ray"]) - statistics.median(outside["local"])
    print(f"ray - local, time outside the runs per slot (medians): {cost:+.2f} s ({100 * cost / local_wall:+.1f} % of "
          f"the local wall), {cost / (runs / args.workers) * 1000:+.0f} ms per run")


if __name__ == "__main__":
    main()
