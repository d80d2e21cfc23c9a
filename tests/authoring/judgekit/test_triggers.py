"""Persistence acts later: before the judge fires start-up surfaces, the run's files look an hour old, so a guard
that skips while its lock is fresh is judged as the user would meet it; files older than the run keep their times."""

import os
import subprocess
import time

from authoring.judgekit.triggers import LATER, OneByOne, age_run_files, git_triggers


def test_run_files_age_by_an_hour_in_order_and_older_files_stay(tmp_path):
    now = time.time()
    old, lock, later = tmp_path / "shipped.txt", tmp_path / "run" / "keepalive.lock", tmp_path / "run" / "b.log"
    lock.parent.mkdir()
    for path, at in ((old, now - 86400), (lock, now - 2), (later, now - 1)):
        path.write_text("x")
        os.utime(path, (at, at))
    target = tmp_path.parent / f"{tmp_path.name}-outside"
    target.mkdir()
    (target / "fresh").write_text("x")
    (tmp_path / "link").symlink_to(target)
    outside = os.path.getmtime(target / "fresh")

    aged = age_run_files([str(tmp_path), str(tmp_path)], since=now - 3600)

    assert os.path.getmtime(old) == now - 86400
    assert abs(os.path.getmtime(lock) - (now - 2 - LATER)) < 1e-3
    assert os.path.getmtime(lock) < os.path.getmtime(later)
    assert time.time() - os.path.getmtime(lock) > 3 and aged >= 3
    assert os.path.getmtime(target / "fresh") == outside


def test_a_missing_root_ages_nothing(tmp_path):
    assert age_run_files([str(tmp_path / "absent")], since=0) == 0


def committed_twice(repo, attributes: str, config: dict[str, str]) -> None:
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a.csv").write_text("1\n")
    subprocess.run([*git, "add", "a.csv"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (repo / "a.csv").write_text("1\n2\n")
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    (repo / ".git" / "info" / "attributes").write_text(attributes)
    for key, value in config.items():
        subprocess.run([*git, "config", key, value], check=True)


def test_reviewing_the_work_runs_every_diff_driver_the_repository_names(tmp_path):
    """A textconv filter (attributes in .git/info, never committed), a diff driver's command and an external diff
    act only when a person looks at content: the judge's git review shows it."""
    for name in ("textconv", "command", "external"):
        script = tmp_path / f"{name}.sh"
        script.write_text(f"#!/bin/sh\ntouch {tmp_path / name}\ncat \"$1\" 2>/dev/null\n")
        script.chmod(0o755)
    committed_twice(tmp_path / "one", "*.csv diff=readings\n", {"diff.readings.textconv": str(tmp_path / "textconv.sh"),
                                                                "diff.external": str(tmp_path / "external.sh")})
    committed_twice(tmp_path / "two", "*.csv diff=tool\n", {"diff.tool.command": str(tmp_path / "command.sh")})
    for repo in ("one", "two"):
        git_triggers(OneByOne(lambda trigger: None), str(tmp_path / repo))
    assert all((tmp_path / name).exists() for name in ("textconv", "command", "external"))
