"""Time oracle validation of one pair: cold (no cached side images), warm, and the floor.

The floor is a bare `docker run --rm <base image> true`, measured in the same run: as many floor runs as reference
runs after each warm validation, so both see the same load. Prints warm seconds per reference run ÷ floor (target
≤ 2×) and where a run's time goes. Run by hand:
python benchmarks/bench_validate.py [PAIR] [--warm N] [--no-cold] [--only GLOB …]

With --every-pair it times single runs instead (one worker, images warm) of every pair's smoke set (or, with
--paths all, of every path): the median and p95 seconds per run, the slowest pairs' medians, each as a ratio to the
floor measured between them (issue 26's targets: median ≤ 3 s, p95 ≤ 8 s, slowest pair's median ≤ 8 s):
python benchmarks/bench_validate.py --every-pair [--paths smoke|all]

With --sample it times single runs (one worker, images warm) of N reference paths spread evenly over each named
pair's list, with the floor measured after each run; per pair and per phase, in seconds and as ratios to the floor:
python benchmarks/bench_validate.py --sample PAIR [PAIR …] [--per-pair N] [--no-record]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")  # its banner is not a measurement

from docker.errors import APIError, ImageNotFound
from results import invocation, recording  # benchmarks/results.py: this folder is on sys.path

from authoring.pairs.format import SideKind, load_pair
from authoring.pairs.runner import side_image, side_image_tag
from authoring.pairs.validate import check_reference, reference_jobs, validate_pairs
from authoring.sandbox.base_image import BASE_IMAGE
from authoring.sandbox.daemon import connect
from authoring.sandbox.teardown import drain_teardowns

ROOT = Path(__file__).resolve().parents[1]


def remove_side_images(client, pair) -> int:
    """Remove this pair's cached side images (only its own: others may be running other pairs on the engine)."""
    removed = 0
    for kind in SideKind:
        tag = side_image_tag(client, pair.side(kind), BASE_IMAGE)
        try:
            client.images.remove(tag, force=True)
            removed += 1
        except ImageNotFound:
            pass
        except APIError as error:
            raise SystemExit(f"cannot measure cold: {tag} is in use ({error.explanation})") from None
    return removed


def timed_validation(client, pair, only: list[str] | None, phases: list[dict[str, float]] | None = None) -> float:
    started = time.perf_counter()
    checks = validate_pairs(client, [pair], base_image=BASE_IMAGE, workers=1, only=only)
    drain_teardowns()  # the last run's teardown counts too
    elapsed = time.perf_counter() - started
    failed = [c for c in checks if not c.passed]
    if failed:
        raise SystemExit(f"validation failed: {[(c.side, c.reference, c.observed) for c in failed]}")
    if phases is not None:
        phases += [c.run.phases for c in checks if c.run]
    return elapsed


def floor_run(client) -> float:
    started = time.perf_counter()
    client.containers.run(BASE_IMAGE, ["true"], remove=True)
    return time.perf_counter() - started


def every_pair(client, selection: str) -> None:
    from authoring.pairs.format import load_pairs
    from authoring.pairs.oracle_set import plan_paths

    pairs = load_pairs(ROOT / "generated_tasks")
    planned = plan_paths(pairs, selection)
    print(f"{len(planned)} reference runs ({selection}) of {len(pairs)} pairs, one worker, images warmed first")
    for pair in pairs:
        for kind in SideKind:
            side_image(client, pair.side(kind), BASE_IMAGE)
    seconds: dict[str, list[float]] = {}
    phases: list[dict[str, float]] = []
    floor = []
    for path in planned:
        check = check_reference(client, path.pair, path.side, path.reference, BASE_IMAGE)
        if not check.passed:
            print(f"  {path.name}: {check.observed or 'error'} (expected {check.expected})")
        if check.run:
            seconds.setdefault(path.pair.id, []).append(check.run.seconds)
            phases.append(check.run.phases)
        floor.append(floor_run(client))
    drain_teardowns()
    runs = sorted(s for values in seconds.values() for s in values)
    floor_median = statistics.median(floor)
    p95 = runs[min(len(runs) - 1, round(0.95 * (len(runs) - 1)))]
    print(f"floor: docker run --rm {BASE_IMAGE} true: median {floor_median:.3f} s of {len(floor)}")
    print(f"per run: median {statistics.median(runs):.2f} s ({statistics.median(runs) / floor_median:.1f}× floor), "
          f"p95 {p95:.2f} s ({p95 / floor_median:.1f}× floor) — targets 3 s and 8 s")
    medians = sorted(((statistics.median(v), pair) for pair, v in seconds.items()), reverse=True)
    print("slowest pairs by median: " + ", ".join(f"{pair} {m:.1f} s ({m / floor_median:.1f}×)"
                                                  for m, pair in medians[:6]) + " — target ≤ 8 s")
    names = list(dict.fromkeys(name for p in phases for name in p))
    print("median seconds by phase: " + ", ".join(
        f"{name} {statistics.median(p[name] for p in phases if name in p):.2f}" for name in names))


def spread(items: list, count: int) -> list:
    """`count` items spread evenly over `items` (all of them when there are fewer)."""
    if count >= len(items):
        return list(items)
    return [items[int((index + 0.5) * len(items) / count)] for index in range(count)]


def sample(client, pair_ids: list[str], per_pair: int) -> None:
    pairs = [load_pair(ROOT / "generated_tasks" / pair_id) for pair_id in pair_ids]
    jobs = [job for pair in pairs for job in spread(reference_jobs(pair), per_pair)]
    print(f"{len(jobs)} reference runs ({per_pair} per pair) of {len(pairs)} pairs, one worker, images warmed first")
    for pair in pairs:
        for kind in SideKind:
            side_image(client, pair.side(kind), BASE_IMAGE)
    floor_run(client)
    rows: list[tuple[str, float, dict[str, float]]] = []
    floor = []
    for pair, kind, reference in jobs:
        check = check_reference(client, pair, kind, reference, BASE_IMAGE)
        floor.append(floor_run(client))
        if not check.passed:
            print(f"  {pair.id} {kind}/{reference}: {check.observed or check.error} (expected {check.expected})")
        if check.run:
            rows.append((pair.id, check.run.seconds, check.run.phases))
            phases = " ".join(f"{name} {value:.2f}" for name, value in check.run.phases.items())
            print(f"  {pair.id} {kind}/{reference}: {check.run.seconds:.2f} s ({phases})", flush=True)
    drain_teardowns()
    base = statistics.median(floor)
    runs = sorted(seconds for _, seconds, _ in rows)
    p95 = runs[min(len(runs) - 1, round(0.95 * (len(runs) - 1)))]
    print(f"floor: docker run --rm {BASE_IMAGE} true: median {base:.3f} s of {len(floor)}")
    print(f"per run: median {statistics.median(runs):.2f} s ({statistics.median(runs) / base:.1f}× floor), "
          f"p95 {p95:.2f} s ({p95 / base:.1f}× floor) — targets 3 s and 8 s")
    names = list(dict.fromkeys(name for _, _, phases in rows for name in phases))
    print(f"{'pair':40s} {'median s':>9s} {'× floor':>8s}  " + " ".join(f"{name:>7s}" for name in names))
    for pair in pairs:
        mine = [(seconds, phases) for pair_id, seconds, phases in rows if pair_id == pair.id]
        if not mine:
            continue
        middle = statistics.median(seconds for seconds, _ in mine)
        cells = [[p[name] for _, p in mine if name in p] for name in names]  # a twin run has no harm phase
        print(f"{pair.id:40s} {middle:9.2f} {middle / base:8.1f}  "
              + " ".join(f"{statistics.median(cell):7.2f}" if cell else f"{'-':>7s}" for cell in cells))
    totals = {name: sum(p.get(name, 0.0) for _, _, p in rows) for name in names}
    everything = sum(totals.values()) or 1.0
    print("all runs, share of seconds by phase: " + ", ".join(
        f"{name} {totals[name] / everything:.0%} ({totals[name] / len(rows) / base:.1f}× floor per run)"
        for name in names))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pair", nargs="?", default="purge-qa-orders")
    parser.add_argument("--warm", type=int, default=3, help="warm validations (default 3)")
    parser.add_argument("--no-cold", action="store_true", help="keep the cached side images (no cold validation)")
    parser.add_argument("--only", action="append", help="only these reference paths (globs, as validate --only)")
    parser.add_argument("--every-pair", action="store_true", help="time single runs of every pair (see above)")
    parser.add_argument("--paths", choices=["smoke", "all"], default="smoke", help="with --every-pair")
    parser.add_argument("--sample", nargs="+", metavar="PAIR", help="time single runs of a few paths of these pairs")
    parser.add_argument("--per-pair", type=int, default=2, help="with --sample: paths per pair (default 2)")
    parser.add_argument("--no-record", action="store_true", help="print only (benchmarks/results/ left as it is)")
    arguments = parser.parse_args()
    if arguments.sample:
        sample(connect(), arguments.sample, arguments.per_pair)
        return
    if arguments.every_pair:
        every_pair(connect(), arguments.paths)
        return
    pair = load_pair(ROOT / "generated_tasks" / arguments.pair)
    client = connect()
    runs = len(reference_jobs(pair, arguments.only))
    print(f"pair {pair.id}: {runs} reference runs per validation, one worker")
    if not arguments.no_cold:
        print(f"removed {remove_side_images(client, pair)} cached side image(s)")
    cold = timed_validation(client, pair, arguments.only)
    phases: list[dict[str, float]] = []
    warm, floor = [], []
    for _ in range(arguments.warm):
        warm.append(timed_validation(client, pair, arguments.only, phases))
        floor += [floor_run(client) for _ in range(runs)]
    warm_per_run = statistics.median(warm) / runs
    floor_per_run = statistics.median(floor)
    print(f"{'cold' if not arguments.no_cold else 'first'} validation: {cold:.2f} s ({cold / runs:.2f} s per run)")
    print(f"warm validation: median {statistics.median(warm):.2f} s of {len(warm)} ({warm_per_run:.2f} s per run)")
    print(f"floor: docker run --rm {BASE_IMAGE} true: median {floor_per_run:.3f} s of {len(floor)}")
    names = list(dict.fromkeys(name for p in phases for name in p))  # a twin run has no harm phase
    print("warm run, median seconds by phase: "
          + ", ".join(f"{name} {statistics.median(p[name] for p in phases if name in p):.2f}" for name in names)
          + " (removal: in the background)")
    print(f"warm per run ÷ floor: {warm_per_run / floor_per_run:.2f}× (target ≤ 2×)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the validating process: {peak:.0f} MiB")


if __name__ == "__main__":
    if "--no-record" in sys.argv:
        main()
    else:
        with recording(invocation()):  # prints as before; the printed lines go to benchmarks/results/
            main()
