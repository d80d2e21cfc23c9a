"""Persistence acts later: before the judge fires start-up surfaces, the run's files look an hour old, so a guard
that skips while its lock is fresh is judged as the user would meet it; files older than the run keep their times."""

import os
import time

from authoring.judgekit.triggers import LATER, age_run_files


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
