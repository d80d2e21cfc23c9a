"""The Ray executor on a real local cluster (ray.cluster_utils.Cluster: a head without slots and a worker node with
two `docker_slot`s, separate processes on this machine) with real Docker runs."""

import os
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from authoring.executor import Job, NodeRefused, RayExecutor, Shipment, ShipmentRefused, toolkit_version
from authoring.executor_validate import check_shipped, validate_on
from authoring.pairs.format import SideKind, content_hash, load_pair
from authoring.pairs.validate import validate_pairs
from authoring.sandbox.teardown import RUN_LABEL, owner_is_gone
from calibration.outcome_index import OutcomeIndex
from calibration.records import read_record

ray = pytest.importorskip("ray", reason="the Ray executor needs the `ray` extra: pip install 'v3ast[ray]'")
cluster_utils = pytest.importorskip("ray.cluster_utils")

pytestmark = pytest.mark.docker
SHIPPED = Path(__file__).resolve().parents[2] / "generated_tasks"
QUICK_PAIR = "purge-qa-orders"
QUICK_REFERENCES = ["risk/harmful", "twin/noop"]


@pytest.fixture(scope="module")
def cluster(docker_client, base_image):
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {}})
    node = cluster.add_node(num_cpus=1, resources={"docker_slot": 2})
    ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
    yield cluster, node
    ray.shutdown()
    cluster.shutdown()


@pytest.fixture
def quick_pair(tmp_path):
    shutil.copytree(SHIPPED / QUICK_PAIR, tmp_path / "generated_tasks" / QUICK_PAIR)
    return load_pair(tmp_path / "generated_tasks" / QUICK_PAIR)


def matrix(checks):
    return [(c.pair_id, str(c.side), c.reference, str(c.expected), str(c.observed), c.error) for c in checks]


def test_validate_through_ray_gives_the_local_matrix(cluster, docker_client, base_image, quick_pair):
    local = validate_pairs(docker_client, [quick_pair], base_image=base_image, workers=2, only=QUICK_REFERENCES)
    remote = validate_on(RayExecutor(docker_client), [quick_pair], base_image=base_image, workers=2,
                         only=QUICK_REFERENCES)
    assert matrix(remote) == matrix(local)
    assert [str(c.observed) for c in remote] == ["COMPROMISED", "INCAPABLE"]
    assert all(c.passed for c in remote)


def test_a_pair_changed_after_planning_is_refused_by_the_worker(cluster, docker_client, base_image, quick_pair):
    planned = content_hash(quick_pair.folder)
    detector = quick_pair.folder / "risk" / "detectors" / "harm.py"
    detector.write_text(detector.read_text() + "\n# tampered after admission\n")
    job = Job("tampered", partial(check_shipped, SideKind.RISK, "harmful", base_image),
              (Shipment(quick_pair.folder, planned),))
    done = []
    RayExecutor(docker_client).run([job], done.append, workers=1, base_image=base_image)
    [finished] = done
    assert isinstance(finished.error, ShipmentRefused) and finished.value is None
    assert "refused" in str(finished.error) and planned[:16] in str(finished.error)
    assert finished.node.startswith(ray.util.get_node_ip_address())


def test_a_calibrate_driver_killed_mid_batch_finishes_on_the_rerun_without_duplicates(cluster, docker_client,
                                                                                       base_image, quick_pair):
    project = quick_pair.folder.parents[1]
    env = dict(os.environ, V3AST_ROOT=str(project), RAY_ADDRESS=cluster[0].address)
    command = [sys.executable, "-c", "from v3ast.cli import main; main()", "calibrate", "--all", "--runs", "2",
               "--workers", "2", "--executor", "ray"]
    batch = project / "runs" / "calibration-scripted-toolcall"
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 150
    while not list(batch.glob("records/*/*.json.gz")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    first = sorted(p.name for p in batch.glob("records/*/*.json.gz"))
    assert 1 <= len(first) < 4, first

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert f"kept {len(first)} finished run(s)" in rerun.stdout
    names = ["risk-0.json.gz", "risk-1.json.gz", "twin-0.json.gz", "twin-1.json.gz"]
    assert sorted(p.name for p in batch.glob("records/*/*.json.gz")) == names
    indexed = OutcomeIndex(batch / "records").rows()
    assert indexed.problems == [] and sorted(r.path.split("/")[1] for r in indexed.rows) == names
    records = [read_record(path) for path in sorted(batch.glob("records/*/*.json.gz"))]
    assert {r["outcome"] for r in records if r["key"]["side"] == "risk"} == {"COMPROMISED"}
    assert {r["outcome"] for r in records if r["key"]["side"] == "twin"} == {"CAPABLE"}
    assert all(r["finished"] and r["executor"]["name"] == "ray" and r["executor"]["node"] for r in records)
    orphans = [c.id for c in docker_client.containers.list(all=True, sparse=True, filters={"label": RUN_LABEL})
               if owner_is_gone(c.attrs.get("Labels") or {})]
    assert orphans == []


def test_a_node_with_another_toolkit_version_is_refused(cluster, quick_pair, tmp_path, monkeypatch):
    """A node where another v3ast is installed (a 9.9.9 dist-info ahead of the real one on its workers' path; the
    driver runs outside the checkout, whose egg-info Ray would otherwise put first on every worker's path)."""
    head, good = cluster
    other = tmp_path / "other-toolkit"
    (other / "v3ast-9.9.9.dist-info").mkdir(parents=True)
    (other / "v3ast-9.9.9.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: v3ast\nVersion: 9.9.9\n")
    head.remove_node(good)
    monkeypatch.setenv("PYTHONPATH", f"{other}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    head.add_node(num_cpus=1, resources={"docker_slot": 1})
    monkeypatch.undo()
    head.wait_for_nodes()
    project = quick_pair.folder.parents[1]
    validate = subprocess.run(
        [sys.executable, "-c", "from v3ast.cli import main; main()", "validate", QUICK_PAIR, "--only", "twin/noop",
         "--executor", "ray"], cwd=project, env=dict(os.environ, V3AST_ROOT=str(project), RAY_ADDRESS=head.address),
        capture_output=True, text=True, timeout=300)
    output = " ".join((validate.stdout + validate.stderr).split())
    assert validate.returncode == 1, output
    assert f"refused: toolkit v3ast 9.9.9 there, {toolkit_version()} on the driver" in output
    assert "twin noop INCAPABLE error FAIL" in output and f"{NodeRefused.__name__}: node" in output
    assert "0/1 reference paths as expected" in output
