"""`v3ast doctor` counts as leftovers only what killed runs left; live runs of other processes are told apart."""

import os
import socket
from types import SimpleNamespace

from typer.testing import CliRunner

from authoring.cli import doctor as doctor_cli
from authoring.doctor import CheckLine
from authoring.engine_runs import EngineRuns
from authoring.sandbox.teardown import OWNER_LABEL, RUN_LABEL
from v3ast.cli import app

HOST = socket.gethostname()
GONE = f"{HOST}:4194305"  # above Linux's largest pid: no such process
LIVE = f"{HOST}:{os.getpid()}"
PARENT = f"{HOST}:{os.getppid()}"


def labels(run: str, owner: str | None) -> dict[str, str]:
    return {RUN_LABEL: run, **({OWNER_LABEL: owner} if owner else {})}


class Engine:
    """The listings a Docker client gives, by label (the filter is the caller's)."""

    def __init__(self, containers: list[dict], networks: list[dict], images: list[dict]):
        self.containers = SimpleNamespace(list=lambda **_: [SimpleNamespace(labels=c) for c in containers])
        self.networks = SimpleNamespace(list=lambda **_: [SimpleNamespace(attrs={"Labels": n}) for n in networks])
        self.images = SimpleNamespace(list=lambda **_: [SimpleNamespace(labels=i) for i in images])


SHARED = Engine(
    containers=[labels("killed", GONE), labels("killed", GONE), labels("unowned", None),
                labels("batch-a-1", LIVE), labels("batch-a-1", LIVE), labels("batch-a-2", LIVE),
                labels("batch-b-1", PARENT), labels("remote", "elsewhere:12")],
    networks=[labels("killed", GONE), labels("batch-a-1", LIVE)],
    images=[labels("batch-a-2", LIVE)],
)


def test_only_runs_of_dead_processes_are_leftovers_and_live_runs_are_counted_by_run_and_process():
    runs = EngineRuns.of(SHARED)
    assert runs == EngineRuns({"container": 3, "network": 1, "image": 0}, live_runs=4, live_processes=3)
    assert runs.summary() == ("3 containers, 1 network of killed runs (`--fix` removes them); 4 live runs of 3 "
                              "processes share the engine (left alone)")
    idle = EngineRuns.of(Engine([], [], []))
    assert idle.summary() == "none of killed runs; no live run shares the engine"


def test_doctor_does_not_advise_fix_for_live_runs_of_other_processes(monkeypatch):
    alone = Engine([labels("batch-b-1", PARENT), labels("batch-b-1", PARENT)], [labels("batch-b-1", PARENT)], [])
    said = "2 run containers present (`--fix` removes them)"  # what run_doctor counts: every run container
    monkeypatch.setattr(doctor_cli, "run_doctor", lambda fix: [CheckLine("docker engine", True, "up"),
                                                               CheckLine("leftovers", True, said)])
    monkeypatch.setattr(doctor_cli, "connect", lambda: alone)
    shown = CliRunner().invoke(app, ["doctor"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[-1] == ("ok   leftovers: none of killed runs; 1 live run of 1 process shares the "
                                             "engine (left alone)")
