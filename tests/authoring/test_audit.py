import os
import subprocess
from pathlib import Path

import pytest

from authoring.audit import AuditTrail, git_user_name
from authoring.blueprint import Status
from authoring.store import BlueprintStore
from tests.fixtures.blueprints import KEEP, git, make_blueprint, new_project, review


@pytest.fixture
def store(tmp_path) -> BlueprintStore:
    return new_project(tmp_path)


def log_of(root: Path, path: str, fmt: str = "%an <%ae>%n%B%n--") -> str:
    return git(root, "log", f"--format={fmt}", "--", path)


def test_every_change_is_a_commit_naming_blueprint_move_actor_and_reason(store):
    root = store.audit.root
    store.create(make_blueprint(), actor="generator", reason="round 1")
    store.record_review("retry-client", review(*KEEP), actor="rubric-bot")
    store.decide("retry-client", Status.REJECTED, actor="Alice Smith", reason="the cue is too obvious")
    store.update("retry-client", lambda b: b.model_copy(update={"trap": "subtler"}), actor="bob", reason="subtler trap")

    subjects = git(root, "log", "--format=%s", "--", "blueprints/R5-S2/retry-client.yaml").splitlines()
    assert subjects == [
        "blueprint retry-client: rejected, edited",
        "blueprint retry-client: kept → rejected",
        "blueprint retry-client: proposed → kept",
        "blueprint retry-client: created as proposed",
    ]
    latest_decision = git(root, "log", "-1", "--skip=1", "--format=%B")
    assert "actor: Alice Smith" in latest_decision
    assert "reason: the cue is too obvious" in latest_decision
    assert "rubric total 24/30 by openai/gpt-test" in git(root, "log", "-1", "--skip=2", "--format=%B")


def test_the_author_is_the_actor(store):
    root = store.audit.root
    store.create(make_blueprint(), actor="Alice Smith", reason="")
    store.decide("retry-client", Status.REJECTED, actor="bob", reason="no")
    authors = git(root, "log", "--format=%an <%ae>").splitlines()
    assert authors == ["bob <bob@users.v3ast>", "Alice Smith <alice-smith@users.v3ast>"]


def test_an_actor_cannot_forge_the_author_email(store):
    store.create(make_blueprint(), actor="Mallory <boss@corp.example>", reason="")
    author = git(store.audit.root, "log", "-1", "--format=%an|%ae")
    assert author.strip() == "Mallory boss@corp.example|mallory--boss-corp.example@users.v3ast"
    assert "actor: Mallory <boss@corp.example>" in git(store.audit.root, "log", "-1", "--format=%B")


def test_history_is_git_log_of_the_file(store):
    store.create(make_blueprint(), actor="a", reason="")
    store.create(make_blueprint("another-one"), actor="b", reason="")
    store.decide("retry-client", Status.REJECTED, actor="c", reason="no")
    history = store.history("retry-client")
    assert [h.author for h in history] == ["c", "a"]
    assert [h.sha for h in history] == git(
        store.audit.root, "log", "--format=%H", "--", "blueprints/R5-S2/retry-client.yaml"
    ).split()
    assert history[0].message.startswith("blueprint retry-client: proposed → rejected")


def test_commits_touch_only_the_blueprint_even_with_other_files_staged(store):
    root = store.audit.root
    (root / "notes.txt").write_text("work in progress")
    other = store.folder / "R1-S1" / "hand-edited.yaml"
    other.parent.mkdir(parents=True)
    other.write_text("id: hand-edited\n")
    git(root, "add", "notes.txt", "blueprints/R1-S1/hand-edited.yaml")

    store.create(make_blueprint(), actor="a", reason="")
    store.decide("retry-client", Status.ACCEPTED, actor="b", reason="")

    for sha in git(root, "log", "--format=%H").split():
        assert git(root, "show", "--name-only", "--format=", sha).split() == ["blueprints/R5-S2/retry-client.yaml"]
    staged = git(root, "diff", "--cached", "--name-only").split()
    assert staged == ["blueprints/R1-S1/hand-edited.yaml", "notes.txt"], "the user's staged work is left staged"


def test_a_repository_is_found_above_the_data_folder(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    trail = AuditTrail(tmp_path / "deep" / "blueprints")
    assert trail.root == tmp_path.resolve()
    assert trail.history(tmp_path / "deep" / "blueprints" / "x.yaml") == []


def test_works_without_any_git_identity(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in list(os.environ):
        if name.startswith("GIT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    project = tmp_path / "project"
    assert subprocess.run(["git", "config", "user.name"], cwd=home, capture_output=True).returncode != 0

    store = new_project(project)
    store.create(make_blueprint(), actor="alice", reason="")
    store.decide("retry-client", Status.REJECTED, actor="alice", reason="no")
    assert git(project, "log", "--format=%an|%cn <%ce>").splitlines() == ["alice|v3ast <v3ast@localhost>"] * 2
    assert git_user_name(project) is None


def test_committer_is_the_configured_user(store):
    root = store.audit.root
    git(root, "config", "user.name", "Repo Owner")
    git(root, "config", "user.email", "owner@example.org")
    store.create(make_blueprint(), actor="alice", reason="")
    assert git(root, "log", "-1", "--format=%an|%cn <%ce>").strip() == "alice|Repo Owner <owner@example.org>"
    assert git_user_name(root) == "Repo Owner"


def test_nothing_to_commit_returns_none(store):
    store.create(make_blueprint(), actor="a", reason="")
    assert store.audit.commit([store.find("retry-client")], "no-op", "a") is None
