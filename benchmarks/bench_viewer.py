"""The run viewer at the paper's scale: one 40-call run's page, the index over 86,496 runs, and pages per second.

1. Renders the page of a realistic 40-call mini-swe-agent record (bench_metrics' transcript: real source files as
   command output, real prose as reasoning) and, for scale, `v3ast records show`'s text of the same record;
   target: < 300 ms per page.
2. Builds the index of 86,496 synthetic outcome-index rows (51 model × harness batches × 212 pairs × 4 + 4 runs,
   outcomes drawn as bench_metrics draws them) — the columns, the data script and index.html — and opens it in
   headless Chromium, offline: the page reports when its first render ended (since navigation began) and how long
   a filtered and a sorted render took. Target: open in < 2 s. Chromium's start-up is timed apart on an empty page.
3. Writes 200 such records as files of one batch and times `write_viewer` cold (every page) and warm (nothing
   changed), then extrapolates pages per second to the paper's count.

CPU seconds are printed beside wall seconds: the machine is shared.
Usage: .venv/bin/python benchmarks/bench_viewer.py [--runs N] [--record]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_metrics import CELLS, GROUPS, OUTCOMES, PAIRS, RUNS, head, source_texts, transcript  # noqa: E402
from results import recording  # noqa: E402

from calibration.outcome_index import OutcomeIndex, OutcomeRow  # noqa: E402
from calibration.record_text import record_text  # noqa: E402
from calibration.records import RunKey, records_folder, usage  # noqa: E402
from calibration.viewer import environment, run_context, write_index, write_viewer  # noqa: E402
from calibration.viewer_index import Found, Source, find_runs  # noqa: E402
from tests.calibration.browser import CHROMIUM, dom  # noqa: E402

PAPER_RECORDS = GROUPS * PAIRS * RUNS * 2
PAGES = 200


def timed(action, repeat: int = 1) -> tuple[float, float, object]:
    """Median wall and CPU seconds of an action over `repeat` runs, and its last result."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def one_page(rng: random.Random, code: list[str], prose: list[str]) -> list[str]:
    record = head(RunKey("b", "p", "risk", 0), "R2-S2", "COMPROMISED", "Qwen/Qwen3.5-4B", rng) | transcript(
        rng, code, prose)
    record["usage"] = usage(record["trajectory"], record["commands"])
    source = Source(OutcomeRow.of(record, path="p/risk-0.json.gz"), Path("p/risk-0.json.gz"))
    template = environment().get_template("viewer/run.html.j2")
    wall, cpu, page = timed(lambda: template.render(**run_context(record, source, [source], [])), repeat=15)
    text_wall, _, text = timed(lambda: record_text(record), repeat=15)
    return [f"one 40-call run's page: {1000 * wall:.0f} ms wall, {1000 * cpu:.0f} ms CPU (median of 15), "
            f"{len(page) / 1e6:.2f} MB of HTML (target < 300 ms)",
            f"  `records show` text of the same record: {1000 * text_wall:.1f} ms, {len(text) / 1e6:.2f} MB: "
            f"the page takes {wall / text_wall:.1f}× as long"]


def synthetic_sources(count: int) -> list[Source]:
    rng = random.Random(7)
    sources = []
    for group in range(GROUPS):
        for number in range(PAIRS):
            for side in ("risk", "twin"):
                for index in range(RUNS):
                    if len(sources) == count:
                        return sources
                    key = RunKey(f"eval-model-{group:02d}", f"pair-{number:03d}", side, index)
                    data = head(key, CELLS[number % len(CELLS)], rng.choice(OUTCOMES[side]), f"model-{group:02d}",
                                rng) | {"usage": {"model_calls": rng.randint(1, 40), "commands": 0,
                                                  "prompt_tokens": rng.randint(1_000, 400_000),
                                                  "completion_tokens": rng.randint(100, 20_000)}}
                    if data["outcome"] == "UNRESOLVED" and rng.random() < .5:
                        data["verdicts"][0] = {"detector": "harm", "observed": False, "evidence": None,
                                               "error": "judge container exited 137"}
                    path = f"{key.pair}/{side}-{index}.json.gz"
                    sources.append(Source(OutcomeRow.of(data, path=path), Path(key.batch) / path))
    return sources


def opened(url: str) -> tuple[float, dict[str, float]]:
    """Wall seconds of Chromium loading the page and what the page reported (data-*-ms on <html>)."""
    started = time.perf_counter()
    page = dom(url)
    wall = time.perf_counter() - started
    return wall, {name: float(value) for name, value in re.findall(r'data-(\w+)-ms="([\d.]+)"', page)}


def index_at_scale(count: int, folder: Path) -> list[str]:
    sources = synthetic_sources(count)
    found = Found(sources)
    wall, cpu, _ = timed(lambda: write_index(found, folder, title="bench"))
    size = (folder / "index-data.js").stat().st_size
    lines = [f"index of {len(sources):,} runs: built in {wall:.2f} s wall, {cpu:.2f} s CPU; index-data.js "
             f"{size / 1e6:.1f} MB ({size / len(sources):.0f} bytes per run)"]
    if CHROMIUM is None:
        return lines + ["  (no chromium on PATH: not opened)"]
    (folder / "empty.html").write_text("<!doctype html><title>empty</title>")
    empty, _ = opened((folder / "empty.html").resolve().as_uri())
    url = (folder / "index.html").resolve().as_uri()
    full, found_ms = opened(url)
    _, filtered = opened(f"{url}#outcome=UNRESOLVED&model=model-07&side=risk")
    _, by_tokens = opened(f"{url}#sort=tokens&order=asc")
    lines += [f"  opened in headless Chromium: first render done {found_ms.get('ready', 0) / 1000:.2f} s after "
              f"navigation began (target < 2 s); the process took {full:.2f} s, of which an empty page takes "
              f"{empty:.2f} s",
              f"  one render of all {len(sources):,}: {found_ms.get('render', 0):.0f} ms; filtered (outcome × model "
              f"× side): {filtered.get('render', 0):.0f} ms; sorted by tokens: {by_tokens.get('render', 0):.0f} ms"]
    return lines


def pages(rng: random.Random, code: list[str], prose: list[str], folder: Path) -> list[str]:
    runs_root = folder / "runs"
    index = OutcomeIndex(records_folder(runs_root, "b"))
    transcripts = [transcript(rng, code, prose) for _ in range(8)]
    for number in range(PAGES // 2):
        for side in ("risk", "twin"):
            key = RunKey("b", f"pair-{number:03d}", side, 0)
            outcome = rng.choice(OUTCOMES[side])
            index.write(key.path(runs_root), head(key, "R2-S2", outcome, "Qwen/Qwen3.5-4B", rng)
                        | rng.choice(transcripts), [])
    found = find_runs(["b"], runs_root)
    cold_wall, cold_cpu, written = timed(lambda: write_viewer(found, folder / "viewer"))
    warm_wall, _, again = timed(lambda: write_viewer(found, folder / "viewer"))
    per_second = written.rendered / cold_wall
    return [f"{written.rendered} pages of 40-call runs written in {cold_wall:.1f} s wall, {cold_cpu:.1f} s CPU "
            f"({per_second:.0f} pages/s): the paper's {PAPER_RECORDS:,} would take about "
            f"{PAPER_RECORDS / per_second / 60:.0f} min once",
            f"  written again with nothing changed: {warm_wall:.2f} s ({again.rendered} pages rendered), "
            f"{cold_wall / warm_wall:.0f}× faster"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=PAPER_RECORDS, help="Runs in the index (default: the paper's).")
    parser.add_argument("--record", action="store_true", help="Save the result in benchmarks/results/.")
    args = parser.parse_args()
    code, prose = source_texts()
    rng = random.Random(15)
    load = subprocess.run(["cat", "/proc/loadavg"], capture_output=True, text=True).stdout.split()[:3]
    with tempfile.TemporaryDirectory(prefix="v3ast-bench-viewer-") as scratch:
        lines = [f"load average {' '.join(load)}", *one_page(rng, code, prose),
                 *index_at_scale(args.runs, Path(scratch) / "index"), *pages(rng, code, prose, Path(scratch))]
    if args.record:
        with recording("bench_viewer.py"):
            print("\n".join(lines))
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
