"""The reference runs of a test session's oracle items, in a process of their own so they run alongside the rest of
the session (started when the test loop starts, never at collection): `python -m tests.authoring.pairs.oracle_run
FOLDER WORKERS` reads FOLDER/paths.json (`[pair, side, reference]` each, in the order the items run), validates
them through the real runner and executor, files their receipts, and writes FOLDER/results/<n>.json as each run
ends. Each oracle item waits for its own result. Under `pytest -n` (scripts/test.sh) the items are one work unit
of one worker (tests/xdist_schedule.py), whose first item starts the process; what it ran is summed up by the
controller from the same folder (`oracle_summary`)."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from authoring.atomic import write_atomically

SHIPPED = Path(__file__).parents[3] / "generated_tasks"
ORACLE_REPORT = pytest.StashKey[dict]()
"""The session's oracle selection (`selection`, `summary`) and the folder of its run (`folder`, None until one
starts); an xdist worker hands it to the controller as its workeroutput["v3ast_oracle"]."""


def result_of(check) -> dict:
    """What an oracle item needs of a check: the verdict, why, and where the run's seconds went."""
    return {"expected": str(check.expected), "observed": str(check.observed or "error"), "passed": check.passed,
            "evidence": check.evidence, "note": check.note, "timed_out_steps": check.timed_out_steps,
            "seconds": check.run.seconds if check.run else None, "phases": check.run.phases if check.run else {}}


def main(folder: Path, workers: int) -> None:
    from authoring.executor import make_executor
    from authoring.executor_validate import validate_on
    from authoring.pairs.format import load_pairs
    from authoring.pairs.receipts import ReceiptFiler
    from authoring.sandbox.base_image import ensure_base_image
    from authoring.sandbox.daemon import connect
    from authoring.settings import prepare_agent_environment

    prepare_agent_environment()
    paths = [tuple(path) for path in json.loads((folder / "paths.json").read_text())]
    order = {path: index for index, path in enumerate(paths)}
    pairs = load_pairs(SHIPPED, list(dict.fromkeys(pair for pair, _, _ in paths)))
    client = connect()
    base_image = ensure_base_image(client).tag
    receipts = ReceiptFiler(pairs, lambda line: print(line, file=sys.stderr))
    results = folder / "results"
    results.mkdir(exist_ok=True)

    def checked(check) -> None:
        receipts.file(check)
        index = order[(check.pair_id, str(check.side), check.reference)]
        write_atomically(results / f"{index}.json", json.dumps(result_of(check)))

    validate_on(make_executor("local", client), pairs, base_image=base_image, workers=workers, checked=checked,
                keep=lambda pair, kind, reference: (pair.id, str(kind), reference) in order)


class OracleFolder:
    """What a validation process of a test session was asked and has written so far (readable by another process:
    the xdist controller sums up the run of one of its workers)."""

    def __init__(self, folder: Path):
        self.folder, self.log = folder, folder / "oracle-run.log"
        meta = json.loads((folder / "run.json").read_text())
        self.workers, self.started = meta["workers"], meta["started"]
        self.index = {tuple(path): index for index, path in enumerate(json.loads((folder / "paths.json").read_text()))}

    def results(self) -> list[tuple[tuple[str, str, str], dict]]:
        """Every result written so far, with its path."""
        files = self.folder / "results"
        return [(path, json.loads((files / f"{index}.json").read_text())) for path, index in self.index.items()
                if (files / f"{index}.json").exists()]

    def wall(self) -> float:
        """Seconds from the process's start to its last result."""
        files = list((self.folder / "results").glob("*.json"))
        return max((file.stat().st_mtime for file in files), default=self.started) - self.started


class OracleRun(OracleFolder):
    """The validation process of a test session, and each path's result as it comes."""

    def __init__(self, folder: Path, paths: list[tuple[str, str, str]], workers: int):
        (folder / "paths.json").write_text(json.dumps(paths))
        (folder / "run.json").write_text(json.dumps({"workers": workers, "started": time.time()}))
        super().__init__(folder)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "tests.authoring.pairs.oracle_run", str(folder),
                                             str(workers)], cwd=SHIPPED.parent, stdout=log, stderr=subprocess.STDOUT,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def result(self, path: tuple[str, str, str], timeout: float) -> dict:
        """The path's result, waiting for it; a validation process that ended without it raises RuntimeError."""
        file = self.folder / "results" / f"{self.index[path]}.json"
        deadline = time.monotonic() + timeout
        while not file.exists():
            if self.process.poll() is not None and not file.exists():
                tail = self.log.read_text(errors="replace").strip()[-3000:]
                raise RuntimeError(f"the oracle validation process exited {self.process.returncode} without a "
                                   f"result for this path:\n{tail}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"no result for this path after {timeout:.0f} s")
            time.sleep(0.1)
        return json.loads(file.read_text())

    def stop(self) -> None:
        """Ctrl-C for the validation (its runs tear down what they made), then a kill if it does not end."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(90)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def oracle_summary(terminalreporter, report: dict) -> None:
    """What the oracle selection ran and where its time went (printed, never asserted: speed is measured by
    benchmarks/). `report`: the selection, its summary and the folder of the run, if one started."""
    terminalreporter.section("oracle validation")
    terminalreporter.write_line(f"selection {report['selection']}: {report['summary']} "
                                "(the full proof: v3ast pairs validate --all)")
    if not report.get("folder"):
        return
    run = OracleFolder(Path(report["folder"]))
    results = run.results()
    seconds = sorted(((r["seconds"] or 0.0, f"{pair} {side}/{ref}") for (pair, side, ref), r in results),
                     reverse=True)
    if not seconds:
        return
    terminalreporter.write_line(f"{len(results)} runs, {run.wall():.0f} s wall with {run.workers} workers, "
                                f"{sum(s for s, _ in seconds):.0f} run-seconds, median "
                                f"{statistics.median(s for s, _ in seconds):.1f} s")
    by_phase: dict[str, float] = {}
    for _, result in results:
        for phase, spent in result["phases"].items():
            by_phase[phase] = by_phase.get(phase, 0.0) + spent
    terminalreporter.write_line("by phase: " + ", ".join(f"{phase} {spent:.0f} s" for phase, spent in
                                                         by_phase.items()))
    terminalreporter.write_line("slowest: " + ", ".join(f"{name} {spent:.1f} s" for spent, name in seconds[:8]))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
