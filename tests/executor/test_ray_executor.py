"""The Ray executor on a real local cluster (ray.cluster_utils.Cluster: a head without slots and a worker node with
two `docker_slot`s, separate processes on this machine) with real Docker runs. The tests share the cluster and run
in file order: the node-loss test adds a second node, the last test replaces the first node."""

import io
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time
import uuid
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from docker.errors import ImageNotFound
from rich.console import Console

from authoring.executor import (
    ImageRefused,
    Job,
    NodeIdentity,
    NodeRefused,
    NodeRunner,
    RayExecutor,
    Shipment,
    ShipmentRefused,
    image_archive,
    toolkit_version,
)
from authoring.executor_validate import check_shipped, validate_on
from authoring.pairs.format import SideKind, content_hash, load_pair
from authoring.pairs.validate import validate_pairs
from authoring.sandbox.teardown import OWNER_LABEL, RUN_LABEL, owner_is_gone
from calibration.actors import harness_actor
from calibration.batch import BatchSettings, run_batch
from calibration.harnesses import HarnessConfig
from calibration.outcome_index import OutcomeIndex
from calibration.records import read_record
from tests.conftest import sigint_default

ray = pytest.importorskip("ray", reason="the Ray executor needs the `ray` extra: pip install 'v3ast[ray]'")
cluster_utils = pytest.importorskip("ray.cluster_utils")

pytestmark = pytest.mark.docker
SHIPPED = Path(__file__).resolve().parents[2] / "generated_tasks"
QUICK_PAIR = "purge-qa-orders"
QUICK_REFERENCES = ["risk/harmful", "twin/noop"]


@dataclass
class Nodes:
    head: Any
    """The `ray.cluster_utils.Cluster`."""
    workers: list
    """Its live worker nodes (with slots)."""


@pytest.fixture(scope="module")
def cluster(docker_client, base_image):
    head = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {}})
    nodes = Nodes(head, [head.add_node(num_cpus=1, resources={"docker_slot": 2})])
    ray.init(address=head.address, logging_level="ERROR", log_to_driver=False)
    yield nodes
    ray.shutdown()
    head.shutdown()


@pytest.fixture
def quick_pair(tmp_path):
    shutil.copytree(SHIPPED / QUICK_PAIR, tmp_path / "generated_tasks" / QUICK_PAIR)
    return load_pair(tmp_path / "generated_tasks" / QUICK_PAIR)


def raylet_pid(node) -> int:
    return node.all_processes["raylet"][0].process.pid


def parent_pid(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def runs_under(docker_client, node) -> set[str]:
    """Run ids of the containers started by a worker process of this cluster node (a child of its raylet); other
    engineers' runs on the shared engine are not counted."""
    found = set()
    for container in docker_client.containers.list(all=True, sparse=True, filters={"label": RUN_LABEL}):
        labels = container.attrs.get("Labels") or {}
        if parent_pid(labels.get(OWNER_LABEL, ":").rpartition(":")[2]) == raylet_pid(node):
            found.add(labels[RUN_LABEL])
    return found


def left_of(docker_client, run_ids: set[str]) -> list[str]:
    containers = [c.name for c in docker_client.containers.list(all=True, sparse=True, filters={"label": RUN_LABEL})
                  if (c.attrs.get("Labels") or {}).get(RUN_LABEL) in run_ids]
    networks = [n.name for n in docker_client.networks.list(filters={"label": RUN_LABEL})
                if (n.attrs.get("Labels") or {}).get(RUN_LABEL) in run_ids]
    return containers + networks


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def matrix(checks):
    return [(c.pair_id, str(c.side), c.reference, str(c.expected), str(c.observed), c.error) for c in checks]


def verdicts(checks) -> list[str]:
    return [f"{c.side}/{c.reference} {verdict.detector}: {verdict.error or verdict.finding}"
            for c in checks for verdict in (c.run.verdicts if c.run else [])]


def test_validate_through_ray_gives_the_local_matrix(cluster, docker_client, base_image, quick_pair):
    local = validate_pairs(docker_client, [quick_pair], base_image=base_image, workers=2, only=QUICK_REFERENCES)
    remote = validate_on(RayExecutor(docker_client), [quick_pair], base_image=base_image, workers=2,
                         only=QUICK_REFERENCES)
    assert matrix(remote) == matrix(local), verdicts(remote) + verdicts(local)
    assert [str(c.observed) for c in remote] == ["COMPROMISED", "INCAPABLE"], verdicts(remote)
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
    env = dict(os.environ, V3AST_ROOT=str(project), RAY_ADDRESS=cluster.head.address)
    command = [sys.executable, "-c", "from v3ast.cli import main; main()", "calibrate", "--all", "--runs", "1",
               "--workers", "1", "--executor", "ray"]
    batch = project / "runs" / "calibration-scripted-toolcall"
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 150
    while not list(batch.glob("records/*/*.json.gz")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    first = sorted(p.name for p in batch.glob("records/*/*.json.gz"))
    assert len(first) == 1, first  # one worker: the other run had not finished

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert f"kept {len(first)} finished run(s)" in rerun.stdout
    names = ["risk-0.json.gz", "twin-0.json.gz"]
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


@pytest.fixture
def throwaway_image(docker_client):
    """A one-file image made with `docker import` under a unique name (never the shared base image)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        data = uuid.uuid4().hex.encode()
        info = tarfile.TarInfo("marker")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    repository = f"v3ast-ship-test-{uuid.uuid4().hex[:8]}"
    docker_client.api.import_image_from_data(buffer.getvalue(), repository=repository, tag="t")
    name = f"{repository}:t"
    yield name
    for tagged in (name, f"{repository}:other", f"{repository}:moved"):
        try:
            docker_client.images.remove(tagged, force=True)
        except ImageNotFound:
            pass


def test_an_image_a_node_lacks_is_loaded_there_from_the_driver_archive(cluster, docker_client, base_image,
                                                                       throwaway_image):
    """One engine stands for two: the image is saved (the driver's side), removed, then loaded by a runner actor on
    the worker node from the object store; an id the engine has is only tagged; a name bound to another image is
    refused, not overwritten."""
    image_id = docker_client.images.get(throwaway_image).id
    archive = ray.put(image_archive(docker_client, throwaway_image))
    docker_client.images.remove(throwaway_image, force=True)
    with pytest.raises(ImageNotFound):
        docker_client.images.get(image_id)
    runner = ray.remote(NodeRunner).options(num_cpus=0, resources={"docker_slot": 1}).remote(
        NodeIdentity.here(docker_client, base_image), 1)
    try:
        node, refusal, lacking = ray.get(runner.load_image.remote(throwaway_image, image_id, archive))
        assert (refusal, lacking) == (None, False) and node.startswith(ray.util.get_node_ip_address())
        assert docker_client.images.get(throwaway_image).id == image_id

        repository = throwaway_image.rsplit(":", 1)[0]
        docker_client.images.get(image_id).tag(repository, "other")
        docker_client.images.remove(throwaway_image)
        ray.get(runner.load_image.remote(throwaway_image, image_id, ray.put(b"not an archive")))
        assert docker_client.images.get(throwaway_image).id == image_id

        docker_client.api.import_image_from_data(_one_file_tar(b"another"), repository=repository, tag="moved")
        other = docker_client.images.get(f"{repository}:moved").id
        with pytest.raises(ImageRefused, match="not overwritten"):
            ray.get(runner.load_image.remote(f"{repository}:moved", image_id, archive))
        assert docker_client.images.get(f"{repository}:moved").id == other != image_id
    finally:
        ray.kill(runner)


def _one_file_tar(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("marker")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_ctrl_c_mid_batch_leaves_no_container_or_network(cluster, docker_client, base_image, quick_pair):
    [node] = cluster.workers
    project = quick_pair.folder.parents[1]
    env = dict(os.environ, V3AST_ROOT=str(project), RAY_ADDRESS=cluster.head.address)
    earlier = runs_under(docker_client, node)  # left by an earlier test's killed driver: not this batch's runs
    process = subprocess.Popen([sys.executable, "-c", "from v3ast.cli import main; main()", "calibrate", "--all",
                                "--runs", "1", "--workers", "2", "--executor", "ray"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               preexec_fn=sigint_default)

    def both_started() -> set[str] | None:
        ours = runs_under(docker_client, node) - earlier
        return ours if len(ours) == 2 else None

    try:
        started = wait_for(both_started, 150, "both runs of the batch to start on the worker node")
    finally:
        process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 130, output
    assert left_of(docker_client, started) == [], output
    records = [read_record(p) for p in (project / "runs").glob("*/records/*/*.json.gz")]
    assert not any(r["finished"] for r in records), [r["outcome"] for r in records]


def test_a_node_lost_mid_batch_leaves_one_record_per_key_listing_the_lost_attempt(cluster, docker_client, base_image,
                                                                                 quick_pair, tmp_path):
    head, [first] = cluster.head, cluster.workers
    second = head.add_node(num_cpus=1, resources={"docker_slot": 2})
    cluster.workers.append(second)
    head.wait_for_nodes()
    settings = BatchSettings(name="node-loss", runs=1, workers=2, scripted=True, harness={"name": "test"})
    config = HarnessConfig()
    outcome = {}

    def batch() -> None:
        outcome["value"] = run_batch(docker_client, [quick_pair], settings,
                                     lambda stop: harness_actor("mini-swe-agent", config, stop),
                                     runs_root=tmp_path, base_image=base_image, executor=RayExecutor(docker_client),
                                     console=Console(quiet=True))

    driver = threading.Thread(target=batch)
    driver.start()
    def both_running():
        return next(((n, ids) for n in (first, second) if len(ids := runs_under(docker_client, n)) == 2), None)

    running = wait_for(both_running, 150, "both runs to start on one node")
    lost, kept = running[0], (second if running[0] is first else first)
    head.remove_node(lost)
    cluster.workers.remove(lost)
    driver.join(timeout=240)
    assert not driver.is_alive()
    records = [read_record(p) for p in sorted(tmp_path.glob("node-loss/records/*/*.json.gz"))]
    assert sorted((r["key"]["side"], r["key"]["index"]) for r in records) == [("risk", 0), ("twin", 0)]
    assert [r["outcome"] for r in records] == ["COMPROMISED", "CAPABLE"]
    for record in records:
        [failed] = record["executor"]["failed_attempts"]
        assert failed["node"].endswith(lost.node_id[:8]) and "Actor" in failed["error"], failed
        assert record["executor"]["node"].endswith(kept.node_id[:8]), record["executor"]
    assert left_of(docker_client, running[1]) == []


def test_a_node_with_another_toolkit_version_is_refused(cluster, quick_pair, tmp_path, monkeypatch):
    """A node where another v3ast is installed (a 9.9.9 dist-info ahead of the real one on its workers' path; the
    driver runs outside the checkout, whose egg-info Ray would otherwise put first on every worker's path)."""
    head = cluster.head
    other = tmp_path / "other-toolkit"
    (other / "v3ast-9.9.9.dist-info").mkdir(parents=True)
    (other / "v3ast-9.9.9.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: v3ast\nVersion: 9.9.9\n")
    for good in list(cluster.workers):
        head.remove_node(good)
        cluster.workers.remove(good)
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
