"""The run viewer over real records — scripted calibration batches through mini-swe-agent and every native harness,
in Docker — checked as a reader gets it: opened from disk in headless Chromium with no network."""

import gzip
import html
import json
import os
import shlex
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from html.parser import HTMLParser

import pytest
import yaml

from calibration.admission import Manifest
from calibration.outcome_index import OutcomeIndex, OutcomeRow
from calibration.records import read_record, write_record
from calibration.report import write_report, write_results
from calibration.viewer import write_viewer
from calibration.viewer_cli import TRIAGE_FILE, view, viewer_server
from calibration.viewer_index import Found, Source, calibration_verdicts, find_runs, page_path, pair_path
from tests.calibration.browser import dom, evaluate, screenshot
from tests.calibration.records_factory import record as hand_made
from tests.calibration.viewer_runs import (
    API_KEY,
    BROKEN_BATCH,
    HOST_TOKEN,
    HOST_TOKEN_VARIABLE,
    MISS_BATCH,
    PAIR_ID,
    RUNBOOK,
    RUNBOOK_NOTE,
    make_runs,
)

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def runs(docker_client, base_image, tmp_path_factory):
    root = tmp_path_factory.mktemp("viewer-project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HOST_TOKEN_VARIABLE, HOST_TOKEN)
        return make_runs(docker_client, base_image, root)


@pytest.fixture(scope="module")
def viewer(runs):
    found = find_runs([], runs)
    written = write_viewer(found, runs / "viewer")
    return written.folder, found


class Rows(HTMLParser):
    """The text of each cell of each row in the index table's body."""

    def __init__(self, page: str):
        super().__init__()
        self.rows, self._body, self._cell = [], False, None
        self.feed(page[page.index('<table id="runs"'):])

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self._body = True
        elif self._body and tag == "tr":
            self.rows.append([])
        elif self._body and tag == "td":
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._body = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def rows_of(folder, fragment=""):
    return Rows(dom(f"{(folder / 'index.html').resolve().as_uri()}#{fragment}")).rows


def test_every_harness_every_command_and_every_verdict_is_on_the_run_page(viewer):
    folder, found = viewer
    harnesses = {source.row.harness.split()[0] for source in found.sources if source.row.finished}
    assert harnesses == {"mini-swe-agent", "claude-code", "codex", "opencode", "pi"}
    for source in found.sources:
        record = read_record(source.record)
        page = dom(folder / page_path(source.row)) if source.row.side == "risk" else (
            folder / page_path(source.row)).read_text()
        text = html.unescape(page)
        assert f'id="outcome">{record["outcome"]}<' in page
        for command in record.get("commands") or []:
            assert f"$ {command['command']}" in text, (source.row.key, command["command"])
            assert command["output"].strip() in text, (source.row.key, command["output"])
        for verdict in record["verdicts"]:
            assert f'data-detector="{verdict["detector"]}"' in page
            assert (verdict["evidence"] or verdict["error"]) in text
        for call in range(1, (record.get("usage") or {}).get("model_calls", 0) + 1):
            assert f'id="call-{call}"' in page, (source.row.key, call)
        if record["finished"]:
            assert "← this run" in page and "re-classifying" not in page
        if source.row.batch == "calibration-mini" and record["finished"]:
            changed = {f["path"]: f for f in record["files"]}
            runbook = next(path for path in changed if path.endswith(RUNBOOK))
            assert changed[runbook]["kind"] == "changed" and f"+{RUNBOOK_NOTE}" in changed[runbook]["diff"]
            assert f'<span class="add">+{html.escape(RUNBOOK_NOTE)}</span>' in page
        if source.row.harness.split()[0] in ("claude-code", "codex", "opencode", "pi"):
            assert 'id="native"' in page


def test_the_index_filters_and_sorts_in_the_browser(viewer):
    folder, found = viewer
    everything = rows_of(folder)
    assert len(everything) == len(found.sources)
    outcomes = {source.row.outcome for source in found.sources}
    for outcome in outcomes:
        shown = rows_of(folder, f"outcome={outcome}")
        assert len(shown) == sum(s.row.outcome == outcome for s in found.sources)
        assert {row[8] for row in shown} == {outcome}
    claude = next(s.row.harness for s in found.sources if s.row.harness.startswith("claude-code"))
    assert {row[1] for row in rows_of(folder, f"harness={claude}")} == {"calibration-claude-code"}
    verdicts = calibration_verdicts(found.sources)
    missed = {batch for (batch, _), verdict in verdicts.items() if verdict == "fail"}
    assert MISS_BATCH in missed and {row[1] for row in rows_of(folder, "calibration=fail")} == missed
    broken = rows_of(folder, "reason=run failed (infrastructure)")
    assert {row[1] for row in broken} == {BROKEN_BATCH} and len(broken) == 2
    category = found.sources[0].row.risk
    assert {row[4] for row in rows_of(folder, f"risk={category}&side=twin")} == {"twin"}
    assert rows_of(folder, f"risk=R{int(category[1:]) % 9 + 1}") == []
    calls = [int(row[11]) for row in rows_of(folder, "sort=calls&order=asc")]
    assert calls == sorted(calls) and calls[-1] > calls[0]


CHANGE = "{0}.dispatchEvent(new Event('change', {{bubbles: true}})); await new Promise(r => setTimeout(r, 100));"
ROWS = "Array.from(document.querySelectorAll('#runs tbody tr'), tr => Array.from(tr.cells, td => td.textContent))"


def test_a_reader_filters_sorts_and_notes_by_clicking(viewer):
    folder, found = viewer
    note = "detector wrong: the twin's goal can't see the fix; it's in a copy"
    index, pair = folder / "index.html", folder / pair_path(MISS_BATCH, PAIR_ID)
    chosen, sorted_calls, cleared, command, script = evaluate([
        (index, "const s = document.querySelector('select[name=outcome]'); s.value = s.options[1].value; "
                f"{CHANGE.format('s')} return [s.value, location.hash, {ROWS}];"),
        (index, "const s = document.querySelector('select[name=sort]'); "
                "const o = document.querySelector('select[name=order]'); "
                f"s.value = 'calls'; {CHANGE.format('s')} o.value = 'asc'; {CHANGE.format('o')} return {ROWS};"),
        (f"{index.resolve().as_uri()}#side=risk", "document.getElementById('clear').click(); "
                                                 f"await new Promise(r => setTimeout(r, 100)); return {ROWS}.length;"),
        (pair, "document.querySelector('button[data-prefix^=detector]').click(); "
               "const n = document.getElementById('note'); "
               f"n.value = {json.dumps(note)}; n.dispatchEvent(new Event('input')); "
               "document.getElementById('save').click(); return document.getElementById('command').textContent;"),
        (index, "let blob; URL.createObjectURL = (b) => { blob = b; return 'about:blank'; }; "
                "HTMLAnchorElement.prototype.click = function () {}; document.getElementById('notes').click(); "
                "return await blob.text();"),
    ])
    outcome, fragment, rows = chosen
    assert fragment == f"#outcome={outcome}" and {row[8] for row in rows} == {outcome}
    assert len(rows) == sum(source.row.outcome == outcome for source in found.sources)
    calls = [int(row[11]) for row in sorted_calls]
    assert calls == sorted(calls) and len(calls) == len(found.sources) == cleared
    expected = ["v3ast", "calibration", "admit", PAIR_ID, "--batch", MISS_BATCH, "--justify", note]
    assert shlex.split(command) == expected
    assert [shlex.split(line) for line in script.splitlines() if not line.startswith("#")] == [expected]


def test_the_index_pages_through_many_runs(tmp_path):
    rows = [OutcomeRow.of(hand_made(f"pair-{n:03}", side, 0, "CAPABLE" if side == "twin" else "COMPLETED"),
                          path=f"pair-{n:03}/{side}-0.json.gz") for n in range(125) for side in ("risk", "twin")]
    found = Found([Source(row, tmp_path / "records" / row.path) for row in rows])
    write_viewer(found, tmp_path / "viewer")
    assert len(rows_of(tmp_path / "viewer")) == 100
    assert len(rows_of(tmp_path / "viewer", "p=2")) == 50
    assert [row[2] for row in rows_of(tmp_path / "viewer", "sort=key&order=asc&side=risk&p=1")][:2] == [
        "pair-100", "pair-101"]


def test_a_pair_that_missed_gets_a_triage_note_that_admit_takes(viewer, runs):
    folder, _ = viewer
    passed = (folder / pair_path("calibration-codex", PAIR_ID)).read_text()
    missed = dom(folder / pair_path(MISS_BATCH, PAIR_ID))
    assert 'id="triage"' in missed and 'id="verdict">fail<' in missed
    assert f"v3ast calibration admit {PAIR_ID} --batch {MISS_BATCH} --justify '…'" in html.unescape(missed)
    assert ('id="triage"' in passed) == ('id="verdict">fail<' in passed)
    assert missed.count("<iframe") == 2

    server = viewer_server(folder, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        assert urllib.request.urlopen(f"{base}/index.html").status == 200
        note = "pair too hard: the scripted twin gave up; it's the policy's doing"
        request = urllib.request.Request(f"{base}/triage", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"batch": MISS_BATCH, "pair": PAIR_ID, "note": note}).encode())
        assert urllib.request.urlopen(request).status == 204
    finally:
        server.shutdown()
        server.server_close()
    [entry] = yaml.safe_load((folder / TRIAGE_FILE).read_text())["notes"]
    assert entry["note"] == note
    command = shlex.split(entry["admit"])
    assert command[:3] == ["v3ast", "calibration", "admit"]
    admitted = subprocess.run([sys.executable, "-c", "from v3ast.cli import main; main()", *command[1:],
                               "--actor", "ana"], env={**os.environ, "V3AST_ROOT": str(runs.parent)},
                              capture_output=True, text=True, timeout=120)
    assert admitted.returncode == 0, admitted.stderr
    manifest = yaml.safe_load((runs.parent / "calibration" / "admitted.yaml").read_text())["admitted"]
    assert [(e["pair"], e["batch"], e["justification"]) for e in manifest] == [(PAIR_ID, MISS_BATCH, note)]


def test_no_secret_reaches_the_html_not_even_one_a_record_kept(viewer, runs, monkeypatch, tmp_path):
    folder, found = viewer
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert API_KEY.encode() not in data and HOST_TOKEN.encode() not in data, path
    leaked = next(s for s in found.sources if s.row.batch == "calibration-mini" and s.row.side == "risk")
    assert "$ echo [redacted] [redacted]" in (folder / page_path(leaked.row)).read_text()

    late = "ghp_lateSecretValue9876543210"
    source = next(s for s in found.sources if s.row.batch == "calibration-mini" and s.row.side == "risk")
    record = read_record(source.record)
    record["commands"][0]["output"] += f"\n{late}\n"
    kept = tmp_path / "runs" / "kept" / "records" / PAIR_ID / "risk-0.json.gz"
    write_record(kept, record, secrets=[])
    assert late.encode() in gzip.decompress(kept.read_bytes())
    monkeypatch.setenv("LATE_API_TOKEN", late)
    written = write_viewer(find_runs([str(kept)], tmp_path / "runs"), tmp_path / "viewer")
    assert written.rendered == 1
    for path in (tmp_path / "viewer").rglob("*"):
        if path.is_file():
            assert late.encode() not in path.read_bytes(), path


def test_pages_are_rendered_again_only_for_changed_records(runs, tmp_path, monkeypatch):
    monkeypatch.setenv("V3AST_ROOT", str(runs.parent))
    view(["calibration-mini", "calibration-pi"], out=tmp_path / "v", serve=False, port=0)
    again = write_viewer(find_runs(["calibration-mini", "calibration-pi"], runs), tmp_path / "v")
    assert (again.runs, again.rendered) == (4, 0)
    folder = runs / "calibration-pi" / "records"
    path = folder / PAIR_ID / "twin-0.json.gz"
    record = read_record(path)
    record["facts"]["notes"].append("looked at by a researcher")
    OutcomeIndex(folder).write(path, record, [])
    changed = write_viewer(find_runs(["calibration-mini", "calibration-pi"], runs), tmp_path / "v")
    assert changed.rendered == 1
    assert "looked at by a researcher" in (tmp_path / "v" / "runs" / "calibration-pi" / PAIR_ID / "twin-0.html"
                                           ).read_text()


class Links(HTMLParser):
    """Each table's rows of cells (text, links in it), by table id; and every link of the page (SVG ones too)."""

    def __init__(self, page: str):
        super().__init__()
        self.cells, self.hrefs, self._table, self._cell = {}, [], None, None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        href = attrs.get("href") or attrs.get("xlink:href")
        if tag == "table":
            self._table = self.cells.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag == "td" and self._table is not None:
            self._cell = ["", []]
            self._table[-1].append(self._cell)
        elif tag == "a" and href:
            self.hrefs.append(href)
            if self._cell is not None:
                self._cell[1].append(href)

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[0] += data


def test_every_report_cell_and_figure_mark_links_into_the_viewer(viewer, runs):
    folder, found = viewer
    _, results = write_results([s.row for s in found.sources], runs / "results", title="Results")
    _, batch = write_report(runs, MISS_BATCH, Manifest(runs.parent / "calibration" / "no-admissions.yaml"))
    for page in (results, batch):
        links = Links(page.read_text())
        for table, rows in links.cells.items():
            for text, hrefs in (cell for row in rows for cell in row):
                assert hrefs or text.strip() in ("—", "none", "no runs"), (page, table, text)
        into_viewer = [h for h in links.hrefs if "viewer/" in h]
        assert len(into_viewer) > 10
        for href in into_viewer:
            assert (page.parent / urllib.parse.unquote(href.split("#")[0])).resolve().is_file(), href
    svg_links = Links(results.read_text().split('<table id="table-cap-asr"', 1)[0].split("<svg", 1)[1]).hrefs
    assert len(svg_links) == len({(s.row.model, s.row.harness) for s in found.sources})
    for row in Links(results.read_text()).cells["table-cap-asr"]:
        if len(row) < 12:
            continue  # a combination with no runs
        (harness, _), (compromised, [link]) = row[1], row[6]
        shown = rows_of(folder, link.split("#", 1)[1])
        assert len(shown) == int(compromised) and {line[8] for line in shown} <= {"COMPROMISED"}, harness


def test_the_pages_look_right_in_a_browser(viewer, tmp_path):
    folder, found = viewer
    source = next(s for s in found.sources if s.row.batch == "calibration-claude-code" and s.row.side == "risk")
    for page, name in ((folder / "index.html", "index.png"), (folder / page_path(source.row), "run.png"),
                       (folder / pair_path(MISS_BATCH, PAIR_ID), "pair.png")):
        image = screenshot(page, tmp_path / name, width=1280, height=1200, javascript=True)
        assert image.stat().st_size > 20_000
