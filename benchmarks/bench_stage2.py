"""Stage II end to end with a scripted model on loopback: K blueprints, the real mini-swe-agent, real Docker.

Usage: .venv/bin/python benchmarks/bench_stage2.py [--blueprints K] [--workers N] [--repair]
Prints per blueprint: wall seconds, agent calls, check seconds per round; then the batch's wall time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")
os.environ.setdefault("MSWEA_COST_TRACKING", "ignore_errors")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import git  # noqa: E402
import yaml  # noqa: E402

from authoring.blueprint import Blueprint  # noqa: E402
from authoring.offline.model_servers import ScriptedModelServer  # noqa: E402
from authoring.project import Project  # noqa: E402
from authoring.sandbox.base_image import ensure_base_image  # noqa: E402
from authoring.sandbox.daemon import connect  # noqa: E402
from authoring.stage2.attempt import ImplementConfig  # noqa: E402
from authoring.stage2.batch import implement_batch  # noqa: E402
from authoring.stage2.model import ModelSettings  # noqa: E402
from authoring.store import BlueprintStore  # noqa: E402
from tests.authoring.stage2.conftest import FIXTURES, WRONG_HARM, PairScript, write_pair_commands  # noqa: E402


def seeded_project(folder: Path, count: int) -> tuple[Project, BlueprintStore]:
    shutil.copytree(ROOT / "templates", folder / "templates")
    git.Repo.init(folder, initial_branch="main")
    store = BlueprintStore(folder / "blueprints")
    base = yaml.safe_load((FIXTURES / "blueprint.yaml").read_text(encoding="utf-8"))
    for index in range(count):
        store.create(Blueprint.model_validate({**base, "id": f"{base['id']}-{index + 1}"}), actor="bench", reason="")
    return Project(folder), store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blueprints", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--repair", action="store_true", help="first submission has a wrong detector (2 rounds)")
    options = parser.parse_args()
    client = connect()
    image = ensure_base_image(client).tag
    good = write_pair_commands()
    rounds = [write_pair_commands(replace={"risk/detectors/harm.py": WRONG_HARM}), good] if options.repair else [good]
    with tempfile.TemporaryDirectory(prefix="bench-stage2-") as scratch:
        project, store = seeded_project(Path(scratch), options.blueprints)
        with ScriptedModelServer(PairScript(*rounds)) as server:
            config = ImplementConfig(model=ModelSettings(model="scripted", base_url=server.base_url, api_key="x"),
                                     base_image=image, max_repair_rounds=1)
            started = time.monotonic()
            outcomes = implement_batch(client, project, store, store.list(), config, workers=options.workers)
            wall = time.monotonic() - started
    for outcome in sorted(outcomes, key=lambda o: o.blueprint_id):
        result = outcome.result
        checks = " + ".join(f"{r.check_seconds:.1f}" for r in result.rounds)
        print(f"{outcome.blueprint_id}: {result.status} in {result.seconds:.1f} s, {result.model_calls} model calls, "
              f"{result.input_tokens + result.output_tokens} tokens, check {checks} s")
    print(f"{len(outcomes)} blueprint(s), {options.workers} worker(s): {wall:.1f} s wall")


if __name__ == "__main__":
    main()
