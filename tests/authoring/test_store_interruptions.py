"""A writer killed with kill -9 while git commits: the next store opened finishes or undoes the change."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from authoring.blueprint import Status
from authoring.store import BlueprintStore, WriteFailed
from tests.fixtures.blueprints import git, make_blueprint, new_project

WRITER = """
import sys
from pathlib import Path
from authoring.store import BlueprintStore
BlueprintStore(Path(sys.argv[1])).update(
    "retry-client", lambda b: b.model_copy(update={"title": "the new title"}), actor="killed", reason="edit")
"""
HOOK = """#!/bin/sh
if [ "$1" = "{state}" ]; then touch "{mark}"; while [ ! -e "{go}" ]; do sleep 0.05; done; exit 1; fi
"""


def kill_writer_when_git_reaches(store: BlueprintStore, state: str) -> None:
    """Run an edit in another process and kill it (kill -9) while its `git commit` is at `state`; then let
    git go on (a `prepared` transaction is aborted: no commit; a `committed` one stays)."""
    git_dir = Path(store.audit.repo.git_dir)
    mark, go, hook = git_dir / "reached", git_dir / "go", git_dir / "hooks" / "reference-transaction"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(HOOK.format(state=state, mark=mark, go=go))
    hook.chmod(0o755)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(store.folder)], cwd=Path(__file__).parents[2])
    deadline = time.monotonic() + 60
    while not mark.exists():
        assert writer.poll() is None and time.monotonic() < deadline, "the writer never reached git"
        time.sleep(0.05)
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    go.touch()
    while (git_dir / "index.lock").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    for path in (hook, mark, go):
        path.unlink()


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """No one may write in `folder`, root included (root ignores permissions, not the immutable flag)."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        return
    folder.chmod(0o555)
    try:
        yield
    finally:
        folder.chmod(0o755)


@pytest.fixture
def store(tmp_path) -> BlueprintStore:
    store = new_project(tmp_path)
    store.create(make_blueprint(), actor="bot", reason="")
    return store


def test_killed_before_the_commit_the_change_is_undone(tmp_path, store):
    kill_writer_when_git_reaches(store, "prepared")
    assert "the new title" in store.find("retry-client").read_text()  # what the kill left behind
    reopened = BlueprintStore(store.folder)
    assert git(tmp_path, "status", "--porcelain") == ""
    assert reopened.get("retry-client").title == make_blueprint().title
    assert not reopened.audit.journal_path.exists()


def test_killed_after_the_commit_the_change_is_kept(tmp_path, store):
    kill_writer_when_git_reaches(store, "committed")
    reopened = BlueprintStore(store.folder)
    assert git(tmp_path, "status", "--porcelain") == ""
    assert reopened.get("retry-client").title == "the new title"
    assert git(tmp_path, "log", "-1", "--format=%an").strip() == "killed"


def test_a_write_refused_by_a_read_only_store_changes_nothing(tmp_path, store):
    cell = store.folder / "R5-S2"
    before = (cell / "retry-client.yaml").read_text()
    with read_only(cell), pytest.raises(WriteFailed, match="nothing written: permission denied"):
        store.update("retry-client", lambda b: b.model_copy(update={"title": "lost?"}), actor="a", reason="")
    assert (cell / "retry-client.yaml").read_text() == before
    assert git(tmp_path, "status", "--porcelain") == ""


def test_a_held_git_lock_is_named_and_changes_nothing(tmp_path, store):
    lock = Path(store.audit.repo.git_dir) / "index.lock"
    lock.write_text("")
    try:
        with pytest.raises(WriteFailed, match=r"git is busy: \.git/index\.lock exists"):
            store.decide("retry-client", Status.ACCEPTED, actor="a", reason="")
    finally:
        lock.unlink()
    assert git(tmp_path, "status", "--porcelain") == ""
    assert store.get("retry-client").status == "proposed"


def test_a_dead_git_helper_neither_loses_a_commit_nor_unstages_the_file(tmp_path, store):
    """GitPython reads objects through long-lived `git cat-file` children; one killed (a signal to the process
    group) must not pass for a repository without commits."""
    store.update("retry-client", lambda b: b.model_copy(update={"title": "first"}), actor="a", reason="")
    assert store.audit.repo.head.commit.tree["blueprints"]  # an object read: GitPython starts its helpers
    helpers = [h for h in (store.audit.repo.git.cat_file_all, store.audit.repo.git.cat_file_header) if h]
    assert helpers
    for helper in helpers:
        helper.proc.kill()
        helper.proc.wait()
    store.update("retry-client", lambda b: b.model_copy(update={"title": "second"}), actor="a", reason="")
    assert git(tmp_path, "status", "--porcelain") == ""
    assert "title: second" in git(tmp_path, "show", "HEAD:blueprints/R5-S2/retry-client.yaml")
