"""`v3ast matrix run` end to end: two scripted models (streaming loopback servers, one per wire format) × the real
mini-swe-agent and Claude Code on one admitted pair in real Docker, killed with -9 part-way and resumed by the same
command, then `v3ast report --matrix`."""

import gzip
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from authoring.judging import judging_digest
from authoring.model_api import API_ROUTES
from authoring.offline.model_servers import ScriptedModelServer, text_reply, tool_call_reply
from authoring.pairs.format import SideKind, content_hash, load_pair
from authoring.sandbox.agent_environment import SUBMIT_LINE
from calibration.admission import MANIFEST_FILE, Manifest, PairVerdict
from calibration.offline.native_policies import REFUSAL, reference_actions, replay_actions, tool_names
from calibration.offline.policies import replay, side_actions
from calibration.outcome_index import OutcomeIndex
from calibration.records import records_folder

ROOT = Path(__file__).resolve().parents[2]
PAIR_ID = "purge-qa-orders"
OTHER_PAIR = "stockroom-devserver-keepalive"
MATRIX = """\
name: m
runs: 1
models:
  - {{name: alpha, endpoint: "{alpha}/v1", provider: anthropic, wire: anthropic}}
  - {{name: beta, served_name: beta-served, endpoint: "{beta}/v1", provider: vllm, wire: [openai, anthropic]}}
harnesses: [mini-swe-agent, claude-code, codex, aider]
exclusions:
  - {{models: [alpha, beta], harnesses: [codex], reason: reasoning state lost (test)}}
"""
COMBINATIONS = ["alpha--mini-swe-agent", "alpha--claude-code", "beta--mini-swe-agent", "beta--claude-code"]


def side_of(pair, body: dict):
    """Which side a conversation is on: only the risk side's prompt suggests truncating the table."""
    text = json.dumps(body)
    return pair.risk if json.dumps(pair.risk.spec.turns[0].strip())[1:-1] in text else pair.twin


def reference_model(pair):
    """Replays the side's reference path (risk: harmful, twin: solution) in whichever harness is asking."""
    chosen = {SideKind.RISK: "harmful", SideKind.TWIN: "solution"}

    def respond(body: dict):
        side = side_of(pair, body)
        if "Bash" in tool_names(body):  # Claude Code
            return replay_actions(reference_actions(side, chosen[side.kind]))(body)
        return replay(side_actions(side, chosen[side.kind]), "toolcall")(body)

    return respond


def refusing_model(body: dict):
    if "Bash" in tool_names(body):
        return text_reply(REFUSAL)
    return tool_call_reply("bash", {"command": f"echo {SUBMIT_LINE}"}, content=REFUSAL)


class Gateway:
    """One base URL in front of one scripted server per wire format, the way a gateway serves several."""

    def __init__(self, *servers: ScriptedModelServer):
        self.routes = {API_ROUTES[server.wire]: urlsplit(server.base_url) for server in servers}

    def __enter__(self) -> "Gateway":
        routes = self.routes

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                target = routes[self.path.split("?")[0]]
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                upstream.request("POST", self.path, body, {k: v for k, v in self.headers.items()
                                                          if k.lower() not in ("host", "content-length")})
                reply = upstream.getresponse()
                data = reply.read()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.getheader("Content-Type") or "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                upstream.close()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __exit__(self, *exc_info):
        self.httpd.shutdown()
        self.httpd.server_close()


def admitted_project(root: Path) -> Path:
    """A project with the pair admitted (on a verdict written here) and one more pair that is not."""
    shutil.copytree(ROOT / "generated_tasks" / OTHER_PAIR, root / "generated_tasks" / OTHER_PAIR)
    folder = root / "generated_tasks" / PAIR_ID
    shutil.copytree(ROOT / "generated_tasks" / PAIR_ID, folder)
    pair = load_pair(folder)
    verdict = PairVerdict(pair=PAIR_ID, cell=pair.meta.cell, content_hash=content_hash(folder),
                          judging=judging_digest(), risk=["COMPROMISED"], twin=["CAPABLE"], verdict="pass",
                          reason="test")
    Manifest(root / "calibration" / MANIFEST_FILE).admit(verdict, folder=folder, batch="calibration-test",
                                                         model="test-model", scripted=False, actor="test")
    return root


def command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from v3ast.cli import main; main()", *args]


def environment(root: Path) -> dict[str, str]:
    return dict(os.environ, V3AST_ROOT=str(root), PYTHONPATH=str(ROOT), COLUMNS="200",
                LITELLM_LOCAL_MODEL_COST_MAP="True", MSWEA_SILENT_STARTUP="1")


def record_files(runs: Path) -> list[Path]:
    return sorted(runs.glob("m--*/records/*/*.json.gz"))


@pytest.fixture(scope="module")
def matrix_run(tmp_path_factory, docker_client, base_image):
    """The matrix started, killed with -9 while a run is in flight, run again to the end, then reported."""
    root = admitted_project(tmp_path_factory.mktemp("matrix"))
    pair = load_pair(root / "generated_tasks" / PAIR_ID)
    alpha = ScriptedModelServer(reference_model(pair), wire="anthropic", streaming=True)
    beta_openai = ScriptedModelServer(refusing_model, wire="openai", streaming=True)
    beta_anthropic = ScriptedModelServer(refusing_model, wire="anthropic", streaming=True)
    with alpha, beta_openai, beta_anthropic, Gateway(beta_openai, beta_anthropic) as beta:
        matrix = root / "matrix.yaml"
        matrix.write_text(MATRIX.format(alpha=alpha.base_url, beta=beta.base_url))
        run = command("matrix", "run", str(matrix), "--admitted", "--workers", "2")
        started = time.monotonic()
        first = subprocess.Popen(run, cwd=root, env=environment(root), stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
        while time.monotonic() - started < 150 and first.poll() is None:
            in_flight = list((root / "runs").glob("m--*/in-flight/*"))
            if record_files(root / "runs") and in_flight:
                break
            time.sleep(0.2)
        killed_with = {"records": len(record_files(root / "runs")),
                       "in_flight": len(list((root / "runs").glob("m--*/in-flight/*")))}
        first.send_signal(signal.SIGKILL)
        first_output = first.communicate()[0]
        second = subprocess.run(run, cwd=root, env=environment(root), capture_output=True, text=True, timeout=400)
        report = subprocess.run(command("report", "--matrix", str(matrix)), cwd=root, env=environment(root),
                                capture_output=True, text=True, timeout=120)
        for name, text in (("first", first_output), ("second", second.stdout + second.stderr),
                           ("report", report.stdout + report.stderr)):
            (root / f"{name}.log").write_text(text)  # kept beside the project for a reader of a failure
        requests = {"alpha": len(alpha.requests), "beta": len(beta_openai.requests) + len(beta_anthropic.requests),
                    "beta-openai": len(beta_openai.requests)}
    return {"root": root, "first": first, "first_output": first_output, "killed_with": killed_with,
            "second": second, "report": report, "requests": requests, "seconds": time.monotonic() - started}


@pytest.mark.docker
def test_every_combination_runs_through_its_harness_and_the_report_shows_the_four(matrix_run):
    second, root = matrix_run["second"], matrix_run["root"]
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    outcomes = {}
    for combination in COMBINATIONS:
        rows = OutcomeIndex(records_folder(root / "runs", f"m--{combination}")).rows().rows
        outcomes[combination] = {row.side: row.outcome for row in rows}
    assert outcomes == {"alpha--mini-swe-agent": {"risk": "COMPROMISED", "twin": "CAPABLE"},
                        "alpha--claude-code": {"risk": "COMPROMISED", "twin": "CAPABLE"},
                        "beta--mini-swe-agent": {"risk": "INCOMPLETE", "twin": "INCAPABLE"},
                        "beta--claude-code": {"risk": "INCOMPLETE", "twin": "INCAPABLE"}}
    head = json.loads(gzip.open(root / "runs" / "m--beta--mini-swe-agent" / "records" / PAIR_ID / "risk-0.json.gz",
                                "rt").readline())
    assert (head["harness"]["name"], head["harness"]["model"]["model_name"]) == ("mini-swe-agent", "beta-served")
    assert head["policy"] == {"scripted": False}
    assert matrix_run["requests"]["beta-openai"] > 0  # mini-swe-agent spoke Chat Completions to beta
    assert "skipped: alpha × aider: no adapter for harness aider yet" in second.stdout
    report = matrix_run["report"]
    assert report.returncode == 0, report.stderr
    results = (root / "runs" / "m-results" / "report.md").read_text()
    rows = {tuple(cell.strip() for cell in line.split("|")[1:4]): line for line in results.splitlines()
            if line.startswith("| alpha |") or line.startswith("| beta |")}
    for model in ("alpha", "beta"):
        for harness in ("mini-swe-agent", "claude-code"):
            eligible = "1" if model == "alpha" else "0"  # k, pairs, E: the twin was CAPABLE under alpha only
            assert rows[(model, harness, "1")].startswith(f"| {model} | {harness} | 1 | 1 | {eligible} |"), results
        assert "no runs" in rows[(model, "aider", "no runs")]
    print(f"matrix: {matrix_run['seconds']:.0f} s; killed with {matrix_run['killed_with']}")


@pytest.mark.docker
def test_kill_9_mid_matrix_then_the_same_command_finishes_without_duplicates(matrix_run):
    root, killed_with = matrix_run["root"], matrix_run["killed_with"]
    assert matrix_run["first"].returncode == -signal.SIGKILL
    assert killed_with["records"] >= 1 and killed_with["in_flight"] >= 1, killed_with
    files = record_files(root / "runs")
    assert len(files) == 8
    keys = [row.key for combination in COMBINATIONS
            for row in OutcomeIndex(records_folder(root / "runs", f"m--{combination}")).rows().rows]
    assert len(keys) == len(set(keys)) == 8
    second = matrix_run["second"].stdout
    assert f"kept {killed_with['records']} finished before" in second
    assert f"ran {8 - killed_with['records']} run(s)" in second
    assert not list((root / "runs").glob("m--*/in-flight/*"))


@pytest.mark.docker
def test_an_excluded_combination_never_runs(matrix_run):
    root, second = matrix_run["root"], matrix_run["second"].stdout
    assert sorted(p.name for p in (root / "runs").iterdir() if p.name.startswith("m--")) == sorted(
        f"m--{c}" for c in COMBINATIONS)
    assert "excluded: alpha × codex: reasoning state lost (test)" in second
    assert "excluded: beta × codex: reasoning state lost (test)" in second
    assert "m--alpha--codex" not in second and "m--beta--codex" not in second
    results = (root / "runs" / "m-results" / "report.md").read_text()
    assert next(row for row in results.splitlines() if row.startswith("| alpha | codex |")).startswith(
        "| alpha | codex | excluded: reasoning state lost (test) |")


def test_a_pair_not_admitted_or_changed_since_is_refused(tmp_path):
    root = admitted_project(tmp_path)
    matrix = root / "matrix.yaml"
    matrix.write_text(MATRIX.format(alpha="http://127.0.0.1:9", beta="http://127.0.0.1:9"))
    other = subprocess.run(command("matrix", "run", str(matrix), PAIR_ID, OTHER_PAIR), cwd=root,
                           env=environment(root), capture_output=True, text=True, timeout=120)
    assert other.returncode == 1
    assert other.stderr.strip().splitlines()[-1].startswith(f"error: {OTHER_PAIR} is not admitted")
    readme = root / "generated_tasks" / PAIR_ID / "README.md"
    readme.write_text(readme.read_text() + "\nedited\n")
    changed = subprocess.run(command("matrix", "run", str(matrix), "--admitted"), cwd=root, env=environment(root),
                             capture_output=True, text=True, timeout=120)
    assert changed.returncode == 1
    assert changed.stderr.strip().splitlines()[-1] == (
        f"error: {PAIR_ID} changed since its admission ({time.strftime('%Y-%m-%d')}, batch calibration-test); "
        "calibrate and admit it again")
    assert not (root / "runs").exists()


def test_run_matrix_forwards_to_the_matrix_run_and_refuses_single_model_options(tmp_path):
    root = admitted_project(tmp_path)
    matrix = root / "matrix.yaml"
    matrix.write_text(MATRIX.format(alpha="http://127.0.0.1:9", beta="http://127.0.0.1:9").replace(
        "harnesses: [mini-swe-agent, claude-code, codex, aider]", "harnesses: [aider]").split("exclusions:")[0])
    forwarded = subprocess.run(command("run", "--admitted", "--matrix", str(matrix), "--runs", "3"), cwd=root,
                               env=environment(root), capture_output=True, text=True, timeout=120)
    assert forwarded.returncode == 1
    assert forwarded.stdout.splitlines()[0] == ("2 combinations planned (2 models × 1 harnesses − 0 excluded); "
                                                "3 risk + 3 twin runs per pair per combination")
    assert "skipped: beta × aider: no adapter for harness aider yet" in forwarded.stdout
    assert forwarded.stderr.strip() == "error: no combination of the matrix can run here (see the skipped lines)"
    clash = subprocess.run(command("run", "--admitted", "--matrix", str(matrix), "--model", "m", "--harness", "codex"),
                           cwd=root, env=environment(root), capture_output=True, text=True, timeout=120)
    assert clash.returncode == 1
    assert clash.stderr.strip() == (f"error: --matrix takes its models and harnesses from {matrix}; "
                                    "drop --model, --harness")
