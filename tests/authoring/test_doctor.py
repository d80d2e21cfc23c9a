import pytest

from authoring.doctor import run_doctor

pytestmark = pytest.mark.docker


def test_doctor_reports_every_check_ok_on_a_ready_machine(docker_client, base_image):
    lines = run_doctor(fix=False)
    names = [line.name for line in lines]
    assert [n for n in names if not n.startswith("harness layer ")] == ["docker engine", "base image",
                                                                         "services image", "leftovers"]
    assert {n.split()[2] for n in names if n.startswith("harness layer ")} == {"claude-code", "codex", "opencode", "pi"}
    assert all(line.ok for line in lines), [line.render() for line in lines]


def test_doctor_fails_with_one_line_when_the_engine_is_unreachable(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/absent.sock")
    [line] = run_doctor(fix=False)
    assert not line.ok and "v3ast doctor --fix" in line.detail
