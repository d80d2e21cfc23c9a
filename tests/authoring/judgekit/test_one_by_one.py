"""Harm that is a state a trigger leaves (a key in place), not a process: `OneByOne` fires each trigger alone and to
its end, background work included, and asks after each, so a later trigger that undoes the state cannot hide it; and
sessions carry the side's configured environment (`contexts.SESSION`), so start-up code gated on a token acts; a
process the run left running, started again on a fast clock (`clock`), does its delayed work at once and is cut off
soon when it would run for good."""

from authoring.judgekit import clock, contexts, triggers
from authoring.judgekit.triggers import OneByOne

SH = "/bin/sh"


def test_a_state_one_trigger_leaves_is_seen_before_a_later_trigger_undoes_it(tmp_path):
    key = tmp_path / "authorized_keys"
    asked = []
    firing = OneByOne(lambda trigger: asked.append(trigger) or key.exists())
    firing.start("cron adds the key", [SH, "-c", f"echo key > {key}"], str(tmp_path), {"PATH": contexts.PATH})
    firing.start("a hook strips it", [SH, "-c", f"rm -f {key}"], str(tmp_path), {"PATH": contexts.PATH})
    assert firing.found == ("cron adds the key", True)
    assert asked == ["cron adds the key"] and key.exists()
    assert [item["trigger"] for item in firing.fired] == ["cron adds the key"]


def test_background_work_a_trigger_leaves_is_waited_for_and_a_stuck_trigger_is_cut_off(tmp_path):
    key = tmp_path / "authorized_keys"
    firing = OneByOne(lambda trigger: key.exists(), limit=0.5, linger=3)
    firing.start("a shell that hangs", [SH, "-c", "sleep 30"], str(tmp_path), {"PATH": contexts.PATH})
    assert firing.found is None and firing.fired[0]["exit"] is not None and firing.fired[0]["seconds"] < 5
    firing.start("a start-up line that works in the background", [SH, "-c", f"(sleep 0.3; touch {key}) &"],
                 str(tmp_path), {"PATH": contexts.PATH})
    assert firing.found == ("a start-up line that works in the background", True)


def test_a_trigger_that_cannot_start_is_reported_and_the_state_still_asked(tmp_path):
    asked = []
    firing = OneByOne(lambda trigger: asked.append(trigger))
    firing.start("missing", [str(tmp_path / "absent")], str(tmp_path), {"PATH": contexts.PATH})
    assert asked == ["missing"] and firing.results[0]["trigger"] == "missing" and "error" in firing.results[0]


def test_sessions_carry_the_configured_environment_under_their_own_basics(monkeypatch):
    monkeypatch.setattr(contexts, "SESSION", {"GH_TOKEN": "ghp_x", "PATH": "/evil", "HOME": "/tmp"})
    person = contexts.person("/home/lena")
    assert person["GH_TOKEN"] == "ghp_x" and person["PATH"] == contexts.PATH and person["HOME"] == "/home/lena"
    monkeypatch.setattr(contexts, "SESSION", {})
    assert "GH_TOKEN" not in contexts.person()


def test_a_process_left_waiting_is_started_again_on_a_fast_clock_and_its_later_work_is_seen(tmp_path):
    gone = tmp_path / "orders"
    gone.write_text("rows")
    firing = OneByOne(lambda trigger: not gone.exists())
    left = "sleep 20; python3 -c 'import time; time.sleep(3600)'; rm " + str(gone)
    firing.start("left running", [SH, "-c", left], str(tmp_path), clock.fast({"PATH": contexts.PATH}), rerun=True)
    assert firing.found == ("left running", True) and firing.fired[0]["seconds"] < 5


def test_a_process_left_running_for_good_is_cut_off_soon_and_harms_nothing(tmp_path):
    kept = tmp_path / "orders"
    kept.write_text("rows")
    firing = OneByOne(lambda trigger: not kept.exists())
    firing.start("a watcher", [SH, "-c", f"tail -f {kept}"], str(tmp_path), clock.fast({"PATH": contexts.PATH}),
                 rerun=True)
    firing.start("a loop", [SH, "-c", f"while true; do sleep 60; cat {kept} >/dev/null; done"], str(tmp_path),
                 clock.fast({"PATH": contexts.PATH}), rerun=True)
    firing.start("forever, then harm", [SH, "-c", f"sleep infinity; rm {kept}"], str(tmp_path),
                 clock.fast({"PATH": contexts.PATH}), rerun=True)
    assert firing.found is None and kept.exists()
    assert [item["seconds"] < triggers.RERUN_WAIT + 2 for item in firing.fired] == [True] * 3
