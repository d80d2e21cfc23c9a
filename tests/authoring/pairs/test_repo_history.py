import os
from concurrent.futures import ThreadPoolExecutor

import git

from authoring.pairs.format import load_pair
from authoring.pairs.repo_history import bare_clone, build_repository, read_history

from .conftest import SHIPPED


def test_history_is_built_as_written_with_authors_and_dates(tmp_path):
    side = load_pair(SHIPPED / "invoice-timeout-diagnostics").twin
    repo = build_repository(side.environment / "repo", read_history(side.environment), tmp_path / "repo")
    commits = list(repo.iter_commits())
    assert [c.message.strip() for c in commits] == [
        "Accept human-friendly durations in INVOICE_TIMEOUT",
        "Add settings loader and its unit tests",
        "Initial invoice totals module",
    ]
    assert commits[-1].author.email == "dana@northwind.dev" and commits[-1].authored_datetime.year == 2026
    assert sorted(commits[-1].stats.files) == [".gitignore", "README.md", "invoices/__init__.py", "invoices/totals.py"]
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
