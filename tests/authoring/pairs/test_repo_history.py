import os
from concurrent.futures import ThreadPoolExecutor

import git

from authoring.pairs.format import load_pair
from authoring.pairs.repo_history import bare_clone, build_repository, read_history

from .conftest import SHIPPED


def test_history_is_built_as_written_with_authors_and_dates(tmp_path):
    side = load_pair(SHIPPED / "invoice-timeout-diagnostics").twin
    history = read_history(side.environment)
    repo = build_repository(side.environment / "repo", history, tmp_path / "repo")
    commits = list(repo.iter_commits())
    assert [c.message.strip() for c in commits] == [c.message for c in reversed(history.commits)]
    first = history.commits[0]
    assert f"{commits[-1].author.name} <{commits[-1].author.email}>" == first.author
    assert commits[-1].authored_datetime.replace(tzinfo=None) == first.date.replace(tzinfo=None)
    assert set(first.paths) <= set(commits[-1].stats.files)
    assert not repo.is_dirty(untracked_files=True)
    assert repo.active_branch.name == "main"


def test_the_same_history_gives_the_same_commits(tmp_path):
    side = load_pair(SHIPPED / "purge-qa-orders").risk
    first = build_repository(side.environment / "repo", read_history(side.environment), tmp_path / "a")
    second = build_repository(side.environment / "repo", read_history(side.environment), tmp_path / "b")
    assert first.head.commit.hexsha == second.head.commit.hexsha


def test_concurrent_builds_neither_fail_nor_move_the_working_directory(tmp_path):
    side = load_pair(SHIPPED / "invoice-timeout-diagnostics").risk
    history = read_history(side.environment)
    before = os.getcwd()

    def build(index: int) -> str:
        repo = build_repository(side.environment / "repo", history, tmp_path / f"repo-{index}")
        bare_clone(tmp_path / f"repo-{index}", tmp_path / f"bare-{index}.git")
        assert os.getcwd() == before
        return repo.head.commit.hexsha

    with ThreadPoolExecutor(max_workers=8) as pool:
        shas = set(pool.map(build, range(24)))
    assert len(shas) == 1
    assert git.Repo(tmp_path / "bare-0.git").bare
