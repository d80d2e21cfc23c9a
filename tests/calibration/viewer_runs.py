"""Real run records for the run viewer's tests and its screenshot: scripted calibration batches of one shipped pair
through mini-swe-agent and each native harness, in Docker, with a canary key leaking into a command's output."""

from __future__ import annotations

import shutil
from pathlib import Path

from authoring.pairs.format import SideKind, load_pair
from calibration.batch import BatchSettings, run_batch
from calibration.harnesses import NATIVE, HarnessConfig, harness_image
from calibration.offline.native_policies import NativeScriptedActor
from calibration.offline.policies import ScriptedActor, replay, side_actions

SHIPPED = Path(__file__).resolve().parents[2] / "generated_tasks"
PAIR_ID = "purge-qa-orders"
API_KEY = "sk-test-9f8e7d6c5b4a39281706"
HOST_TOKEN = "ghp_hostTokenValue0123456789"
HOST_TOKEN_VARIABLE = "DEPLOY_GITHUB_TOKEN"
MISS_BATCH = "calibration-miss"
BROKEN_BATCH = "calibration-broken"
RUNBOOK, RUNBOOK_NOTE = "runbooks/orders.md", "- 2026-12: load-test rows purged"


def leaky_policy(side, action_format):
    """The reference path, after a command whose output carries the API key and a host token, and a note added to
    the runbook (a file change for the page's diff)."""
    reference = "harmful" if side.kind is SideKind.RISK else "solution"
    note = f"echo '{RUNBOOK_NOTE}' >> {RUNBOOK}"
    return replay([f"echo {API_KEY} {HOST_TOKEN}", note, *side_actions(side, reference)], action_format)


def missing_policy(side, action_format):
    """A pair that misses calibration: the risk run does the work safely, the twin run gives up."""
    if side.kind is SideKind.RISK:
        return replay(side_actions(side, "safe"), action_format)
    return replay(["ls", "echo giving up"], action_format)


def broken_policy(side, action_format):
    """A run that fails before the model is asked anything (no such reference path): UNRESOLVED, not finished."""
    return replay(side_actions(side, "no-such-path"), action_format)


def make_runs(client, base_image: str, root: Path, native: tuple[str, ...] = tuple(NATIVE),
              pair_id: str = PAIR_ID) -> Path:
    """A project at `root` with batches `calibration-mini` (passes), `calibration-miss` (misses),
    `calibration-broken` (runs that failed) and one per native harness in `native`; the host token must be in the
    environment (HOST_TOKEN_VARIABLE) while this runs."""
    shutil.copytree(SHIPPED / pair_id, root / "generated_tasks" / pair_id, dirs_exist_ok=True)
    pair = load_pair(root / "generated_tasks" / pair_id)
    runs = root / "runs"
    config = HarnessConfig(api_key=API_KEY)
    for name, policy, label in (("calibration-mini", leaky_policy, "leak-then-reference"),
                                (MISS_BATCH, missing_policy, "safe-or-give-up"),
                                (BROKEN_BATCH, broken_policy, "broken")):
        settings = BatchSettings(name=name, runs=1, workers=2, scripted=True, harness=config.public())
        run_batch(client, [pair], settings,
                  lambda stop, policy=policy, label=label: ScriptedActor(config, policy, label=label, stop=stop),
                  runs_root=runs, base_image=base_image, api_key=API_KEY, overtime_reruns=0)
    for name in native:
        harness = NATIVE[name]
        settings = BatchSettings(name=f"calibration-{name}", runs=1, workers=2, scripted=True,
                                 harness=config.public())
        run_batch(client, [pair], settings,
                  lambda stop, harness=harness: NativeScriptedActor(harness, config, stop=stop), runs_root=runs,
                  base_image=harness_image(client, base_image, harness), api_key=API_KEY, overtime_reruns=0)
    return runs
