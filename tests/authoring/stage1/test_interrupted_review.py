"""`v3ast review --pending` stopped at random points: every blueprint is recorded (file + commit) or untouched."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import git
import pytest

from authoring.offline.model_servers import Hang, ScriptedModelServer
from authoring.offline.stage1_model import demo_responder
from authoring.store import BlueprintStore
from tests.fixtures.blueprints import make_blueprint, new_project

V3AST = str(Path(sys.executable).parent / "v3ast")
BLUEPRINTS = 12
SIGNALS = {"ctrl-c": signal.SIGINT, "sigterm": signal.SIGTERM, "kill -9": signal.SIGKILL}


def seeded(root: Path) -> BlueprintStore:
    store = new_project(root)
    for number in range(BLUEPRINTS):
        store.create(make_blueprint(f"bp-{number:02d}", title=f"Blueprint number {number}"), actor="bot", reason="")
    return store


SIGINT_AS = {"a script's background job": signal.SIG_IGN, "a terminal's job": signal.SIG_DFL}
"""How a shell leaves SIGINT for `v3ast review … &`: ignored in a script (no job control), as is otherwise."""
HOLD_FIRST_COMMIT = """#!/bin/sh
if [ "$1" = prepared ] && [ ! -e "{mark}" ]; then touch "{mark}"; while [ ! -e "{go}" ]; do sleep 0.05; done; fi
"""


def review_pending(root: Path, base_url: str, **popen) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "V3AST_DEBUG")}
    env.update(V3AST_ROOT=str(root), PYTHONUNBUFFERED="1")
    return subprocess.Popen([V3AST, "review", "--pending", "--provider", "openai", "--base-url", base_url,
                             "--concurrency", "3"], env=env, cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)


def review_in_background(root: Path, base_url: str, sigint) -> subprocess.Popen:
    """`setsid v3ast review --pending … &`: its own process group, SIGINT as the shell leaves it."""
    return review_pending(root, base_url, start_new_session=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))


def ended(process: subprocess.Popen) -> tuple[str, str]:
    """What the command said, once it ended (killed if it has not in 20 s)."""
    try:
        return process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.communicate()


def assert_index_matches_the_files(root: Path) -> None:
    """As the interrupted command left it, before any other command repairs anything."""
    assert git.Repo(root).git.status("--porcelain", "--", "blueprints") == ""
    assert not (root / ".git" / "v3ast-pending.json").exists()


def assert_recorded_or_untouched(root: Path) -> int:
    """Opening the store (as the next command does) leaves git clean; returns how many were reviewed."""
    store = BlueprintStore(root / "blueprints")
    repo = git.Repo(root)
    assert repo.git.status("--porcelain", "--", "blueprints") == ""
    assert not store.audit.journal_path.exists()
    blueprints, problems = store.load_all()
    assert problems == [] and len(blueprints) == BLUEPRINTS
    reviewed = [b for b in blueprints if b.reviews]
    assert all(len(b.reviews) == 1 for b in reviewed)
    commits = [c for c in repo.iter_commits() if "rubric total" in c.message]
    assert sorted(c.message.split(":")[0].split()[1] for c in commits) == sorted(b.id for b in reviewed)
    return len(reviewed)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("how", SIGNALS)
def test_a_stopped_review_leaves_each_blueprint_recorded_or_untouched(tmp_path, how, seed):
    rng = random.Random(f"{how}-{seed}")
    seeded(tmp_path)
    with ScriptedModelServer(demo_responder, latency=rng.uniform(0.02, 0.12)) as server:
        process = review_pending(tmp_path, server.base_url)
        for _ in range(rng.randint(0, BLUEPRINTS - 2)):
            process.stdout.readline()
        time.sleep(rng.uniform(0, 0.05))
        process.send_signal(SIGNALS[how])
        out, err = process.communicate(timeout=60)
        reviewed = assert_recorded_or_untouched(tmp_path)
        if how != "kill -9" and process.returncode == 130:
            assert f"interrupted: {reviewed} of {BLUEPRINTS} reviewed, kept: " in err
            assert f"{BLUEPRINTS - reviewed} untouched (still proposed)" in err
        assert "Traceback" not in err
        if seed != 1:
            return
        finish = review_pending(tmp_path, server.base_url)
        out, err = finish.communicate(timeout=60)
    assert finish.returncode == 0, err
    assert f"{BLUEPRINTS - reviewed} reviewed, 0 failed" in out
    assert assert_recorded_or_untouched(tmp_path) == BLUEPRINTS


@pytest.mark.parametrize("sigint", SIGINT_AS)
def test_sigint_to_the_group_during_a_commit_keeps_that_review_and_asks_for_no_more(tmp_path, sigint):
    seeded(tmp_path)
    hooks = tmp_path / ".git" / "hooks"
    mark, go = tmp_path / "reached", tmp_path / "go"
    (hooks / "reference-transaction").write_text(HOLD_FIRST_COMMIT.format(mark=mark, go=go))
    (hooks / "reference-transaction").chmod(0o755)
    with ScriptedModelServer(demo_responder, latency=1.0) as server:
        process = review_in_background(tmp_path, server.base_url, SIGINT_AS[sigint])
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.05)
        asked_before = len(server.requests)
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.2)
        go.touch()
        out, err = ended(process)
    assert process.returncode == 130, err
    assert len(server.requests) <= asked_before + 3 < BLUEPRINTS
    assert err.startswith(f"interrupted: 1 of {BLUEPRINTS} reviewed, kept: the 1 review recorded; "
                          f"{BLUEPRINTS - 1} untouched (still proposed)"), err
    assert "failed" not in out and not (tmp_path / "runs" / "stage1" / "failed").exists()
    assert_index_matches_the_files(tmp_path)
    assert assert_recorded_or_untouched(tmp_path) == 1


@pytest.mark.parametrize("sigint", SIGINT_AS)
def test_sigint_to_the_group_while_the_endpoint_hangs_ends_at_once(tmp_path, sigint):
    seeded(tmp_path)
    with ScriptedModelServer(lambda body: Hang(60)) as server:
        process = review_in_background(tmp_path, server.base_url, SIGINT_AS[sigint])
        deadline = time.monotonic() + 60
        while len(server.requests) < 3:
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.05)
        started = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = ended(process)
        seconds = time.monotonic() - started
        asked = len(server.requests)
    assert process.returncode == 130 and seconds < 5, (seconds, err)
    assert asked == 3
    assert err.startswith(f"interrupted: 0 of {BLUEPRINTS} reviewed, kept: nothing; "
                          f"{BLUEPRINTS} untouched (still proposed)"), err
    assert "Traceback" not in err
    assert_index_matches_the_files(tmp_path)
