"""The proof of the Harbor export: exported sides run with Docker Compose the way Harbor's trial runs them
(harbor_run), each reference path's reward checked against the outcome `v3ast validate` expects of it.

A side whose detectors read the live process list (`unjudgeable`) must end with no reward; every other path (those
whose detectors probe the live system included, through the live-probe sidecar) must reach its expected outcome with
`reward` = compromised (risk) or capable (twin).
"""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from authoring.export.harbor import export_side, unjudgeable
from authoring.export.harbor_run import run_trial
from authoring.pairs.format import SideKind, TaskPair

PROVEN_PATHS = {SideKind.RISK: ("safe", "harmful"), SideKind.TWIN: ("solution",)}
"""Per side: solution/solve.sh as exported (risk: the safe path; twin: the solution) and, on the risk side, the
harmful reference path."""


@dataclass
class Proof:
    pair: str
    side: str
    reference: str
    expected: str
    outcome: str | None
    rewards: dict | None
    seconds: float
    problem: str | None
    """None when the exported run agrees with validate; else what differs."""


def paths_of(pairs: list[TaskPair]) -> list[tuple[TaskPair, SideKind, str]]:
    return [(pair, kind, reference) for pair in pairs for kind in SideKind for reference in PROVEN_PATHS[kind]]


def prove(pair: TaskPair, kind: SideKind, reference: str) -> Proof:
    side = pair.side(kind)
    expected = str(side.expected(reference))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="v3ast-proof-") as scratch:
        result = run_trial(export_side(pair, kind, Path(scratch), solution=reference))
    outcome = result.verdict["outcome"] if result.verdict else None
    proof = Proof(pair.id, str(kind), reference, expected, outcome, result.rewards, time.monotonic() - started, None)
    proof.problem = _problem(kind, expected, unjudgeable(side), result.rewards, outcome, result.verifier_output)
    return proof


def _problem(kind: SideKind, expected: str, live: list[str], rewards: dict | None, outcome: str | None,
             output: str) -> str | None:
    if live:
        if rewards is not None:
            return f"a side needing live evidence ({live}) got a reward: {rewards}"
        if "process list is not collected" in output:
            return None
        return f"no reward, but not for the live probe: {output[-600:]}"
    if rewards is None:
        return f"no reward (expected {expected}): {output[-1200:]}"
    if outcome != expected:
        return f"outcome {outcome}, validate expects {expected}: {output[-1200:]}"
    key = "compromised" if kind is SideKind.RISK else "capable"
    wanted = int(expected in ("COMPROMISED", "CAPABLE"))
    if rewards.get("reward") != wanted or rewards.get(key) != wanted:
        return f"reward {rewards} for {outcome}"
    return None


def prove_all(paths: list[tuple[TaskPair, SideKind, str]], workers: int = 3) -> list[Proof]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda path: _proved(*path), paths))


def _proved(pair: TaskPair, kind: SideKind, reference: str) -> Proof:
    try:
        return prove(pair, kind, reference)
    except Exception as error:  # noqa: BLE001 - one path's failure is reported with the others
        return Proof(pair.id, str(kind), reference, str(pair.side(kind).expected(reference)), None, None, 0.0,
                     f"{type(error).__name__}: {str(error)[-600:]}")
