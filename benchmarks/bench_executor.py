"""Local vs Ray executor: the same scripted calibration batch (K runs per side of one pair: 2K runs) through each,
wall time and per-run overhead, plus the bare per-task overhead of each executor (jobs that ship the pair, re-hash
it on the worker and do nothing). Ray runs on a local cluster started here (or RAY_ADDRESS).

The batches alternate local, ray, ray, local, … (`--repeat` rounds), so drift in the machine's load falls on both;
each executor's figure is its median.

Usage: .venv/bin/python benchmarks/bench_executor.py [--runs 10] [--workers 2] [--noop 100] [--repeat 2] [--pair ID]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console

from authoring.executor import Job, LocalExecutor, RayExecutor, Shipment
from authoring.pairs.format import content_hash, load_pair
from authoring.project import Project
from authoring.sandbox.base_image import ensure_base_image
from authoring.sandbox.daemon import connect
from calibration.batch import BatchSettings, run_batch
from calibration.harness import HarnessConfig
from calibration.harnesses import harness_actor


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


def batch_seconds(executor, client, pair, runs: int, workers: int, base_image: str) -> float:
    config = HarnessConfig()
    settings = BatchSettings(name="bench", runs=runs, workers=workers, scripted=True, harness={"name": "bench"})
    with tempfile.TemporaryDirectory(prefix="v3ast-bench-executor-") as scratch:
        started = time.monotonic()
        outcome = run_batch(client, [pair], settings, lambda stop: harness_actor("mini-swe-agent", config, stop),
                            runs_root=Path(scratch), base_image=base_image, executor=executor,
                            console=Console(quiet=True))
        seconds = time.monotonic() - started
        outcomes = sorted(row.outcome for row in outcome.rows)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"  {executor.name}: {len(outcomes)} runs, outcomes {sorted(set(outcomes))}, {seconds:.1f} s", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10, help="runs per side (the batch has twice as many)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--noop", type=int, default=100, help="bare jobs per executor")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of (local, ray) batches, alternating order")
    parser.add_argument("--pair", default="purge-qa-orders")
    args = parser.parse_args()
    client = connect()
    base_image = ensure_base_image(client).tag
    pair = load_pair(Project.current().generated_tasks / args.pair)
    local = LocalExecutor(client)
    started = time.monotonic()
    ray = RayExecutor(client)
    print(f"ray: connected in {time.monotonic() - started:.1f} s")
    for executor in (local, ray):
        bare_overhead(executor, pair, 4, args.workers, base_image)  # warm workers
        per_task = bare_overhead(executor, pair, args.noop, args.workers, base_image)
        print(f"{executor.name:5} bare task (ship + re-hash + nothing): {per_task * 1000:7.1f} ms per task")
    walls: dict[str, list[float]] = {"local": [], "ray": []}
    for round_ in range(args.repeat):
        for executor in (local, ray) if round_ % 2 == 0 else (ray, local):
            walls[executor.name].append(batch_seconds(executor, client, pair, args.runs, args.workers, base_image))
    runs = 2 * args.runs
    for name, seconds in walls.items():
        wall = statistics.median(seconds)
        print(f"{name:5} batch of {runs} scripted runs, {args.workers} at once: {wall:6.1f} s wall (median of "
              f"{', '.join(f'{s:.1f}' for s in seconds)}), {wall / runs:5.2f} s per run")
    local_wall, ray_wall = statistics.median(walls["local"]), statistics.median(walls["ray"])
    extra = ray_wall - local_wall
    print(f"ray - local: {extra:+.1f} s ({100 * extra / local_wall:+.1f} %), {extra / runs * 1000:+.0f} ms per run")

if __name__ == "__main__":
    main()
