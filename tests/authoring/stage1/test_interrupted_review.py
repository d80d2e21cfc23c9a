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

from authoring.offline.model_servers import ScriptedModelServer
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


def review_pending(root: Path, base_url: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "V3AST_DEBUG")}
    env.update(V3AST_ROOT=str(root), PYTHONUNBUFFERED="1")
    return subprocess.Popen([V3AST, "review", "--pending", "--provider", "openai", "--base-url", base_url,
                             "--concurrency", "3"], env=env, cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


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
        if how != "kill -9" and process.returncode == 130 and "interrupted after" in err:
            assert f"{reviewed} reviewed" in err
            assert f"the other {BLUEPRINTS - reviewed} are untouched" in err
        assert "Traceback" not in err
        if seed != 1:
            return
        finish = review_pending(tmp_path, server.base_url)
        out, err = finish.communicate(timeout=60)
    assert finish.returncode == 0, err
    assert f"{BLUEPRINTS - reviewed} reviewed, 0 failed" in out
    assert assert_recorded_or_untouched(tmp_path) == BLUEPRINTS
