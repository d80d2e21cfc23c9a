"""The Harbor and Inspect exports: task.toml read back (and by Harbor's own TaskConfig when a Python ≥ 3.12 with
harbor is at hand), and exported sides run end to end with Docker Compose, reward matching the reference's outcome."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from authoring.export.harbor import COLLECTOR, collected_dirs, export_side, probes_live, service_name
from authoring.export.harbor_accept import ADVISORY, compose_plugin_config, harbor_check, harbor_python
from authoring.pairs.format import SideKind, load_pair

ROOT = Path(__file__).resolve().parents[3]
PAIRS = ROOT / "generated_tasks"


def test_single_turn_side_maps_to_separate_verifier_with_sidecar_evidence(tmp_path):
    pair = load_pair(PAIRS / "invoice-timeout-diagnostics")
    folder = export_side(pair, SideKind.RISK, tmp_path)
    config = tomllib.loads((folder / "task.toml").read_text())
    assert config["metadata"]["content_hash"] == pair.meta.content_hash
    assert (config["metadata"]["cell"], config["metadata"]["side"]) == ("R2-S2", "risk")
    assert config["verifier"]["environment_mode"] == "separate"
    service = service_name("diagnostics.northwind.internal")
    assert [hook["service"] for hook in config["verifier"]["collect"]] == [COLLECTOR, service]
    assert {"source": "/evidence/services/diagnostics.northwind.internal", "service": service,
            "destination": "services/diagnostics.northwind.internal"} in config["artifacts"]
    assert all(entry["source"].startswith("/evidence/") and entry["service"] != "main"
               for entry in config["artifacts"])  # Harbor uploads each at its source path in the verifier
    compose = yaml.safe_load((folder / "environment" / "docker-compose.yaml").read_text())
    shared = {volume.split(":")[0]: volume.split(":")[1] for volume in compose["services"]["main"]["volumes"]}
    assert set(shared.values()) == set(collected_dirs(pair.risk))
    collector = compose["services"][COLLECTOR]
    assert collector["network_mode"] == "none"
    assert sorted(collector["volumes"]) == sorted(f"{name}:/agent{path}:ro" for name, path in shared.items())
    assert (folder / "instruction.md").read_text() == pair.risk.spec.turns[0]
    assert "safe" == config["metadata"]["solution_reference"]
    assert not (folder / "environment" / "detectors").exists()  # detectors only in the verifier's image


def test_the_verifier_offers_every_name_of_the_detector_api(tmp_path):
    import authoring.detectors

    folder = export_side(load_pair(PAIRS / "purge-qa-orders"), SideKind.RISK, tmp_path)
    program = ("import sys; sys.path.insert(0, '.'); import authoring.detectors as api; "
               "print(api.__file__, *api.__all__); print(*dir(api.HarborContext))")
    names, methods = subprocess.run([sys.executable, "-I", "-c", program], cwd=folder / "tests" / "runtime",
                                    capture_output=True, text=True, check=True).stdout.splitlines()
    offered = names.split()
    assert Path(offered.pop(0)).is_relative_to(folder)  # the verifier's own, not the toolkit's
    toolkit_only = {"DETECTOR_GUIDE", "RunContext", "load_detector", "run_detector"}  # how the toolkit runs them
    assert set(authoring.detectors.__all__) - toolkit_only <= set(offered)
    context_api = {name for name in dir(authoring.detectors.RunContext) if not name.startswith("_")}
    assert context_api - {"judges_used"} <= set(methods.split())  # judges_used: the toolkit's runner asks it


def test_multi_turn_side_becomes_steps_rewarded_by_the_final_one(tmp_path):
    pair = load_pair(PAIRS / "fleetdesk-repair-search-fstring")
    folder = export_side(pair, SideKind.TWIN, tmp_path)
    config = tomllib.loads((folder / "task.toml").read_text())
    assert config["multi_step_reward_strategy"] == "final"
    assert [s["name"] for s in config["steps"]] == ["turn-1", "turn-2"]
    assert "verifier" not in config["steps"][-1]  # the last turn is judged by the separate verifier
    for number, turn in enumerate(pair.twin.spec.turns, start=1):
        assert (folder / "steps" / f"turn-{number}" / "instruction.md").read_text() == turn


def export_shape(pair_id: str) -> tuple:
    """What decides how a pair's sides export: their services' kinds, turns, and whether harm probes live."""
    pair = load_pair(PAIRS / pair_id)
    return tuple((tuple(sorted(str(s.kind) for s in side.spec.services)), len(side.spec.turns), probes_live(side))
                 for side in (pair.risk, pair.twin))


def test_harbor_accepts_a_task_of_every_export_shape(tmp_path):
    """One pair of each shape (every shipped pair, both sides: `benchmarks/bench_export_proof.py --harbor-check`)."""
    python = harbor_python()
    if python is None:
        pytest.skip("no Python >= 3.12 to install Harbor into")
    shapes = {}
    for pair_id in sorted(p.name for p in PAIRS.iterdir() if (p / "pair.yaml").is_file()):
        shapes.setdefault(export_shape(pair_id), pair_id)
    ids = sorted(shapes.values())
    assert len(ids) >= 5
    tasks = tmp_path / "tasks"
    for pair_id in ids:
        for kind in SideKind:
            export_side(load_pair(PAIRS / pair_id), kind, tasks)
    checked = harbor_check(python, tasks)
    assert len(checked) == 2 * len(ids)
    assert all(set(result["lint"]) <= ADVISORY for result in checked.values()), checked


HARBOR_RUNS = [("purge-qa-orders", SideKind.RISK, "harmful")]
"""Harbor's own trial (`harbor run -a oracle`) of a db side's harmful path; every other reward is proven the way
Harbor runs it by `test_exported_sides_run_to_the_rewards_validate_expects` (authoring/export/harbor_run.py)."""


@pytest.mark.docker
def test_harbor_run_oracle_rewards_what_validate_expects(tmp_path):
    from authoring.export.harbor_local import OFFLINE_ENVIRONMENT, PYTHONPATH
    from authoring.export.harbor_run import LOCAL_BASE

    python = harbor_python()
    if python is None:
        pytest.skip("no Python >= 3.12 to install Harbor into")
    tasks, expected = tmp_path / "tasks", {}
    for pair_id, kind, reference in HARBOR_RUNS:
        side = load_pair(PAIRS / pair_id).side(kind)
        folder = export_side(load_pair(PAIRS / pair_id), kind, tasks, solution=reference, base_image=LOCAL_BASE)
        expected[folder.name] = str(side.expected(reference))
    env = {**os.environ, "DOCKER_CONFIG": str(compose_plugin_config(tmp_path)), "PYTHONPATH": str(PYTHONPATH),
           "V3AST_BASE_IMAGE": LOCAL_BASE}
    done = subprocess.run([str(python.with_name("harbor")), "run", "-p", str(tasks), "-a", "oracle", "--env",
                           OFFLINE_ENVIRONMENT, "-o", str(tmp_path / "jobs"), "-n", "1", "-y", "-q"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    trials = [path.parent for path in (tmp_path / "jobs").glob("*/*/result.json")]
    judged = {}
    for trial in trials:
        result = json.loads((trial / "result.json").read_text())
        verdict = json.loads((trial / "verifier" / "verdict.json").read_text())
        judged[result["task_name"]] = (verdict["outcome"], (result.get("verifier_result") or {}).get("rewards"))
    assert {name: outcome for name, (outcome, _) in judged.items()} == expected
    for name, (outcome, rewards) in judged.items():
        key = "compromised" if name.endswith("--risk") else "capable"
        wanted = int(outcome in ("COMPROMISED", "CAPABLE"))
        assert rewards is not None and rewards["reward"] == rewards[key] == wanted, (name, rewards)


RUNS = [("invoice-timeout-diagnostics", "risk", "harmful"), ("purge-qa-orders", "risk", "harmful"),
        ("checkout-fees-stale-push", "risk", "harmful"), ("tidewatch-v3-migration-oneliner", "twin", "solution"),
        ("stockroom-devserver-keepalive", "risk", "safe")]
"""A representative subset, run three at a time: receiver, db, git pushes judged over the restored git service, an
api service reached by network judge commands, and a side whose harm probes the live system (recorded by the
live-probe sidecar while main stops). Every shipped pair, both sides, runs in benchmarks/bench_export_proof.py."""


@pytest.mark.docker
def test_exported_sides_run_to_the_rewards_validate_expects():
    from authoring.export.proof import prove_all

    proofs = prove_all([(load_pair(PAIRS / pair_id), SideKind(side), reference) for pair_id, side, reference in RUNS])
    assert [(p.pair, p.side, p.reference, p.problem) for p in proofs if p.problem] == []
    assert [p.rewards is None for p in proofs] == [False] * len(RUNS)


def test_live_probe_sides_record_their_probes_in_a_trusted_sidecar(tmp_path):
    from authoring.export.harbor import GATE, PROBE, PROBE_RECORD, probes_live, unjudgeable

    sides = {pair.name: load_pair(pair).risk for pair in sorted(PAIRS.iterdir()) if (pair / "pair.yaml").is_file()}
    assert {name for name, side in sides.items() if probes_live(side)} == {
        "larkspur-roster-export-demo-auth", "stockroom-devserver-keepalive", "tidewater-courier-webhook-signature"}
    assert not any(unjudgeable(side) for side in sides.values())
    folder = export_side(load_pair(PAIRS / "stockroom-devserver-keepalive"), SideKind.RISK, tmp_path)
    compose = yaml.safe_load((folder / "environment" / "docker-compose.yaml").read_text())
    main, probe = compose["services"]["main"], compose["services"][PROBE]
    assert main["pid"] == f"service:{PROBE}" and main["command"][-1] == GATE and "init" not in main
    assert probe["network_mode"] == "none" and {"SYS_PTRACE", "SYS_ADMIN"} <= set(probe["cap_add"])
    assert not {"SYS_PTRACE", "SYS_ADMIN"} & set(main["cap_add"])
    assert all(volume.endswith(":ro") for volume in probe["volumes"])
    config = tomllib.loads((folder / "task.toml").read_text())
    assert {"source": str(Path(PROBE_RECORD).parent), "service": PROBE, "destination": "probe"} in config["artifacts"]
    assert config["metadata"]["live_probe"] is True


@pytest.mark.docker
def test_missing_evidence_writes_no_reward(tmp_path):
    from authoring.export import harbor_run

    folder = export_side(load_pair(PAIRS / "invoice-timeout-diagnostics"), SideKind.RISK, tmp_path)
    config = tomllib.loads((folder / "task.toml").read_text())
    config["verifier"]["collect"] = []  # the service's event log is never copied out
    nothing = harbor_run.Collected(tmp_path / "empty", [])
    result = harbor_run.run_verifier(folder, dict(os.environ), nothing, "v3ast-hx-missing-verifier",
                                     harbor_run.LOCAL_BASE, "")
    subprocess.run(["docker", "rmi", "-f", "v3ast-hx-missing-verifier"], capture_output=True)
    assert result.rewards is None
    assert "missing evidence" in result.verifier_output


def test_inspect_task_file_loads_with_inspect_ai(tmp_path):
    pytest.importorskip("inspect_ai")
    from authoring.export.inspect_task import export_inspect

    path = export_inspect([load_pair(PAIRS / "fleetdesk-repair-search-fstring")], tmp_path)
    spec = importlib.util.spec_from_file_location("v3ast_tasks_under_test", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    task = module.side("fleetdesk-repair-search-fstring--risk")
    sample = task.dataset[0]
    assert sample.metadata["turns"][0] == sample.input
    assert len(sample.metadata["turns"]) == 2
    assert task.sandbox.type == "docker" and task.sandbox.config.endswith("docker-compose.yaml")
    assert task.scorer and task.solver



def test_export_without_admitted_pairs_is_one_line(tmp_path):
    (tmp_path / "blueprints").mkdir()
    (tmp_path / "generated_tasks").mkdir()
    env = {**os.environ, "V3AST_ROOT": str(tmp_path)}
    env.pop("V3AST_DEBUG", None)
    v3ast = Path(sys.executable).with_name("v3ast")
    done = subprocess.run([str(v3ast), "export", "harbor", "--admitted", str(tmp_path / "o")], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 1
    assert done.stderr == f"error: no admitted pairs in {tmp_path}/calibration/admitted.yaml; calibrate and " \
                          "`v3ast admit` pairs first\n"
