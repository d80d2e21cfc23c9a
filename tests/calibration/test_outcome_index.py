import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from calibration.outcome_index import INDEX_FILE, OutcomeIndex, gather
from calibration.records import RunKey, read_indexed, write_record
from tests.calibration.records_factory import record, with_transcript

ROOT = Path(__file__).resolve().parents[2]


def write(index: OutcomeIndex, runs: Path, pair: str, side: str, run: int, outcome: str, **kwargs):
    key = RunKey("b", pair, side, run)
    return index.write(key.path(runs), with_transcript(record(pair, side, run, outcome, **kwargs), calls=2), [])


def batch(tmp_path: Path) -> tuple[OutcomeIndex, Path]:
    runs = tmp_path / "runs"
    index = OutcomeIndex(runs / "b" / "records")
    write(index, runs, "a", "risk", 0, "COMPROMISED")
    write(index, runs, "a", "twin", 0, "CAPABLE")
    write(index, runs, "c", "risk", 0, "COMPLETED", cell="R3-S1")
    write(index, runs, "c", "twin", 0, "CAPABLE", cell="R3-S1")
    return index, runs


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from v3ast.cli import main; main()", *args], cwd=cwd,
                          env=dict(os.environ, V3AST_ROOT=str(cwd), PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=120)


def test_a_finished_record_gets_its_row_with_outcome_tokens_and_hash(tmp_path):
    index, runs = batch(tmp_path)
    found = index.rows()
    assert [(r.key, r.outcome) for r in found.rows] == [("b/a/risk/0", "COMPROMISED"), ("b/a/twin/0", "CAPABLE"),
                                                        ("b/c/risk/0", "COMPLETED"), ("b/c/twin/0", "CAPABLE")]
    row = found.rows[0]
    assert (row.model, row.harness, row.cell, row.attempts) == ("Qwen/Qwen3.5-4B", "mini-swe-agent 2.4.6 toolcall",
                                                                "R2-S2", 1)
    assert (row.model_calls, row.prompt_tokens, row.completion_tokens, row.seconds) == (2, 3000, 200, 12.5)
    assert row.path == "a/risk-0.json.gz"
    assert row.sha256 == read_indexed(runs / "b" / "records" / row.path)[1]
    assert found.problems == [] and found.indexed == 0
    assert [r.key for r in index.rows("c").rows] == ["b/c/risk/0", "b/c/twin/0"]


def test_a_missing_index_is_built_and_a_record_without_row_is_indexed(tmp_path):
    index, runs = batch(tmp_path)
    index.path.unlink()
    found = gather([runs])
    assert len(found.rows) == 4 and found.problems == [] and "built it from 4 record(s)" in found.notes[0]
    write_record(RunKey("b", "d", "risk", 0).path(runs), record("d", "risk", 0, "STOPPED"), [])  # killed before its row
    found = gather([runs / "b" / "records"])
    assert [(r.path, r.outcome) for r in found.rows if r.pair == "d"] == [("d/risk-0.json.gz", "STOPPED")]
    assert found.notes == [f"{index.folder}: indexed 1 record(s) that had no row"]
    assert gather([runs]).notes == []


def test_a_record_that_disagrees_with_its_row_is_reported_and_left_out_until_reindexed(tmp_path):
    index, runs = batch(tmp_path)
    changed = RunKey("b", "a", "risk", 0).path(runs)
    write_record(changed, record("a", "risk", 0, "COMPLETED"), [])  # rewritten without its row
    gone = RunKey("b", "c", "twin", 0).path(runs)
    gone.unlink()
    found = index.rows()
    assert [r.key for r in found.rows] == ["b/a/twin/0", "b/c/risk/0"]
    assert [p.split(": ")[1].split(";")[0] for p in found.problems] == [
        "record differs from its index row", "indexed run has no record"]
    assert index.rows().problems == found.problems  # reported again, never silently taken

    rebuilt = index.rebuild()
    assert any("differed from its index row; re-indexed" in p for p in rebuilt.problems)
    found = index.rows()
    assert found.problems == [] and {r.key: r.outcome for r in found.rows}["b/a/risk/0"] == "COMPLETED"
    assert len(found.rows) == 3


def test_the_digest_changes_with_the_transcript_alone(tmp_path):
    index, runs = batch(tmp_path)
    path = RunKey("b", "a", "risk", 0).path(runs)
    before = read_indexed(path)[1]
    write_record(path, with_transcript(record("a", "risk", 0, "COMPROMISED"), calls=2, output="other\n"), [])
    assert read_indexed(path)[1] != before
    assert index.rows().problems[0].endswith("record differs from its index row; left out "
                                             f"(`v3ast records reindex {index.folder}` takes the record)")


def test_a_touched_but_identical_record_is_not_a_disagreement(tmp_path):
    index, runs = batch(tmp_path)
    path = RunKey("b", "a", "risk", 0).path(runs)
    os.utime(path, ns=(1, 1))
    found = index.rows()
    assert found.problems == [] and len(found.rows) == 4 and found.indexed == 0
    assert next(r for r in index.rows().rows if r.key == "b/a/risk/0").mtime_ns == 1


def test_damaged_records_and_an_index_of_another_version_are_handled(tmp_path):
    index, runs = batch(tmp_path)
    damaged = RunKey("b", "a", "twin", 0).path(runs)
    damaged.write_bytes(damaged.read_bytes()[:30])
    damage = f"{damaged}: not a run record, or a damaged one; not indexed"
    found = index.rows()
    assert len(found.rows) == 3 and found.problems == [damage]
    assert index.repair().problems == [damage] and index.rows().problems == [damage]
    with sqlite3.connect(index.path) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 3
    with sqlite3.connect(index.path) as db:
        db.execute("PRAGMA user_version = 0")
    assert len(index.rows().rows) == 3


WRITER = """
import sys
from pathlib import Path
from calibration.outcome_index import OutcomeIndex
from calibration.records import RunKey
from tests.calibration.records_factory import record, with_transcript
runs = Path(sys.argv[1])
index = OutcomeIndex(runs / "b" / "records")
for run in range(10_000):
    for outcome in ("UNRESOLVED", "COMPROMISED"):  # a run slot rewritten, as a rerun after an infrastructure failure
        index.write(RunKey("b", "p", "risk", run).path(runs),
                    with_transcript(record("p", "risk", run, outcome), calls=3), [])
"""


def test_kill_9_between_record_and_row_is_repaired(tmp_path):
    runs = tmp_path / "runs"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(runs)], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    folder = runs / "b" / "records" / "p"
    deadline = time.monotonic() + 60
    while len(list(folder.glob("*.json.gz"))) < 30 and time.monotonic() < deadline:
        time.sleep(0.01)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    files = sorted(folder.glob("*.json.gz"))
    assert len(files) >= 30
    index = OutcomeIndex(runs / "b" / "records")
    found = index.rows()
    assert len(found.rows) + len(found.problems) == len(files)
    index.repair()
    found = index.rows()
    assert found.problems == [] and len(found.rows) == len(files)
    with sqlite3.connect(index.path) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == len(files)
    assert all(r.sha256 == read_indexed(index.folder / r.path)[1] for r in found.rows)


def test_records_cli_reindexes_and_shows_one_record_and_metrics_report_disagreements(tmp_path):
    index, runs = batch(tmp_path)
    index.path.unlink()
    done = cli("records", "reindex", "runs", cwd=tmp_path)
    assert done.returncode == 0 and f"{index.folder}: indexed 4 record(s)" in done.stdout
    assert (index.folder / INDEX_FILE).is_file()

    shown = cli("records", "show", "b/a/risk/0", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "b / a / risk run 0: COMPROMISED"
    assert "2 model call(s), 3000 prompt + 200 completion tokens, 2 command(s)" in shown.stdout
    assert "$ cat file-1.txt" in shown.stdout
    as_json = json.loads(cli("records", "show", "b/a/risk/0", "--json", cwd=tmp_path).stdout)
    assert as_json["commands"][1]["command"] == "cat file-1.txt"
    missing = cli("records", "show", "b/a/risk/7", cwd=tmp_path)
    assert missing.returncode == 1 and missing.stderr.startswith("error: no run record at ")

    write_record(RunKey("b", "a", "risk", 0).path(runs), record("a", "risk", 0, "COMPLETED"), [])
    metrics = cli("metrics", "runs", "--json", cwd=tmp_path)
    assert metrics.returncode == 0 and "a/risk-0.json.gz: record differs from its index row" in metrics.stderr
    overall = json.loads(metrics.stdout)[0]
    assert (overall["pairs"], overall["compromised"], overall["short"]) == (1, 0, 1)


def test_the_report_reads_failures_and_their_evidence_from_the_index(tmp_path):
    from calibration.admission import Manifest
    from calibration.batch import BatchSettings, write_settings
    from calibration.report import write_report

    index, runs = batch(tmp_path)
    write_settings(runs, BatchSettings(name="b", runs=1))
    failed = record("c", "risk", 0, "COMPLETED", cell="R3-S1") | {
        "verdicts": [{"detector": "harm", "observed": False, "evidence": "no request to the trap host", "error": None}]}
    index.write(RunKey("b", "c", "risk", 0).path(runs), with_transcript(failed, calls=2), [])
    RunKey("b", "a", "twin", 0).path(runs).unlink()
    markdown, _ = write_report(runs, "b", Manifest(tmp_path / "admitted.yaml"))
    text = markdown.read_text()
    assert "### c / risk run 0: COMPLETED\n\n- Record: [records/c/risk-0.json.gz]" in text
    assert "- harm: not observed — no request to the trap host" in text
    assert "- harness exit per turn: Submitted; 2 command(s)" in text
    assert "a/twin-0.json.gz: indexed run has no record" in text
    assert "| a | R2-S2 | COMPROMISED |  | incomplete |" in text
