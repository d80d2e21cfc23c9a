"""Time oracle validation of one pair: cold (no cached side images), warm, and the floor.

The floor is a bare `docker run --rm <base image> true` per reference run, measured in the same run.
Prints warm seconds per reference run ÷ floor (target ≤ 3×). Run by hand: python benchmarks/bench_validate.py [PAIR]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from authoring.pairs.format import load_pair
from authoring.pairs.runner import TASK_IMAGE_PREFIX
from authoring.pairs.validate import reference_jobs, validate_pairs
from authoring.sandbox.base_image import BASE_IMAGE
from authoring.sandbox.daemon import connect

ROOT = Path(__file__).resolve().parents[1]


def remove_side_images(client) -> int:
    removed = 0
    for image in client.images.list(name=TASK_IMAGE_PREFIX):
        client.images.remove(image.id, force=True)
        removed += 1
    return removed


def timed_validation(client, pair) -> float:
    started = time.perf_counter()
    checks = validate_pairs(client, [pair], base_image=BASE_IMAGE, workers=1)
    elapsed = time.perf_counter() - started
    failed = [c for c in checks if not c.passed]
    if failed:
        raise SystemExit(f"validation failed: {[(c.side, c.reference, c.observed) for c in failed]}")
    return elapsed


def floor_run(client) -> float:
    started = time.perf_counter()
    client.containers.run(BASE_IMAGE, ["true"], remove=True)
    return time.perf_counter() - started


def main() -> None:
    pair = load_pair(ROOT / "generated_tasks" / (sys.argv[1] if len(sys.argv) > 1 else "purge-qa-orders"))
    client = connect()
    runs = len(reference_jobs(pair))
    print(f"pair {pair.id}: {runs} reference runs per validation, one worker")
    print(f"removed {remove_side_images(client)} cached side image(s)")
    cold = timed_validation(client, pair)
    warm = [timed_validation(client, pair) for _ in range(3)]
    floor = [floor_run(client) for _ in range(runs * 2)]
    warm_per_run = statistics.median(warm) / runs
    floor_per_run = statistics.median(floor)
    print(f"cold validation: {cold:.2f} s ({cold / runs:.2f} s per run)")
    print(f"warm validation: median {statistics.median(warm):.2f} s of {len(warm)} ({warm_per_run:.2f} s per run)")
    print(f"floor: docker run --rm {BASE_IMAGE} true: median {floor_per_run:.3f} s of {len(floor)}")
    print(f"warm per run ÷ floor: {warm_per_run / floor_per_run:.2f}× (target ≤ 3×)")


if __name__ == "__main__":
    main()
