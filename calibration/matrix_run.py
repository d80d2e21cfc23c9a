"""Executing a model × harness matrix: every combination's unfinished run slots through the real adapters, on one
executor and one progress display, records and index rows written by this process alone.

Each combination not excluded is a resumable batch (`calibration/matrix.py`): its model's endpoint, served name,
provider kind and wire format become the harness's upstream (the native harnesses reach it through the model
proxy, mini-swe-agent through LiteLLM), K risk + K twin runs per pair, an OVERTIME run rerun as in calibration
batches. A combination that cannot run — no adapter for its harness yet, a harness that speaks none of the
model's wire formats, the key variable unset — is skipped with its reason, never silently. Killed with `kill -9`,
the same command removes the killed runs' containers and runs only the slots without a finished record.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from authoring.errors import BadInput
from authoring.executor import Done, EngineLost, ExecutorError, Job, Shipment, stop_if_engine_lost
from authoring.pairs.format import TaskPair
from calibration.batch import (
    IN_FLIGHT,
    BatchSettings,
    plan,
    read_settings,
    remove_killed_sandboxes,
    run_slot,
    write_settings,
)
from calibration.harnesses import HarnessConfig
from calibration.matrix import Combination, Matrix, MatrixPlan, plan_matrix
from calibration.outcome_index import OutcomeIndex
from calibration.records import RunKey, build_record, is_finished, records_folder, secret_values

MINI_SWE_AGENT_WIRES = ("openai", "anthropic")
"""What mini-swe-agent's LiteLLM speaks to an endpoint (Chat Completions, or Anthropic Messages)."""
LITELLM_PREFIX = {"vllm": "hosted_vllm", "openai": "openai", "openai-compatible": "openai", "anthropic": "anthropic"}


def harness_wires(name: str) -> tuple[str, ...]:
    from calibration.harnesses import MINI_SWE_AGENT, native_harness

    return MINI_SWE_AGENT_WIRES if name == MINI_SWE_AGENT else (native_harness(name).wire,)


def chosen_wire(combination: Combination) -> str | None:
    """The wire format the combination's harness speaks to its model: the first of the model's it can speak."""
    spoken = harness_wires(combination.harness.name)
    return next((wire for wire in combination.model.wires if wire in spoken), None)


def skip_reason(combination: Combination, environ: dict[str, str] | os._Environ = os.environ) -> str | None:
    """Why a combination that is not excluded cannot run here, or None when it can."""
    from calibration.harnesses import HARNESSES, harness_version

    model, harness = combination.model, combination.harness
    if harness.name not in HARNESSES:
        return f"no adapter for harness {harness.name} yet (adapters: {', '.join(HARNESSES)})"
    if harness.version and harness.version != harness_version(harness.name):
        return f"the file asks {harness.name} {harness.version}; the adapter pins {harness_version(harness.name)}"
    if chosen_wire(combination) is None:
        return (f"wire mismatch: {harness.name} speaks {', '.join(harness_wires(harness.name))}; {model.name}'s "
                f"endpoint serves {', '.join(model.wires)} (list every format it serves under `wire`)")
    if model.api_key_env and not environ.get(model.api_key_env):
        return f"{model.api_key_env} is not set (the key of {model.name}'s endpoint)"
    return None


def harness_config(combination: Combination, environ: dict[str, str] | os._Environ = os.environ) -> HarnessConfig:
    """The combination's model as the harness's upstream; the key comes from the environment, never the file."""
    from calibration.harnesses import MINI_SWE_AGENT

    model, wire = combination.model, chosen_wire(combination)
    endpoint = model.endpoint.rstrip("/")
    provider = LITELLM_PREFIX[model.provider]
    if combination.harness.name == MINI_SWE_AGENT and wire == "anthropic":
        provider, endpoint = "anthropic", endpoint.removesuffix("/v1")  # LiteLLM appends /v1/messages
    elif wire != "anthropic" and provider == "anthropic":
        provider = "openai"
    key = environ.get(model.api_key_env) if model.api_key_env else None
    return HarnessConfig(base_url=endpoint, model=model.model_name, provider=provider, api_key=key or "EMPTY")


def batch_settings(combination: Combination, config: HarnessConfig, runs: int, workers: int) -> BatchSettings:
    from calibration.harnesses import harness_version

    model = combination.model
    harness = config.public() | {"name": combination.harness.name, "version": harness_version(combination.harness.name),
                                 "wire": chosen_wire(combination),
                                 "matrix": {"name": combination.matrix, "model": model.name,
                                            "provider": model.provider, "wires": list(model.wires)}}
    return BatchSettings(name=combination.batch, purpose="evaluation", runs=runs, workers=workers, scripted=False,
                         harness=harness)


@dataclass
class Prepared:
    """One runnable combination: its batch settings, its outcome index, its planned slots and those still to run."""

    combination: Combination
    settings: BatchSettings
    config: HarnessConfig
    index: OutcomeIndex
    planned: dict[RunKey, tuple[TaskPair, str]] = field(default_factory=dict)
    jobs: list[Job] = field(default_factory=list)


@dataclass
class MatrixOutcome:
    prepared: list[Prepared]
    skipped: list[tuple[Combination, str]]
    excluded: list[Combination]
    ran: int = 0
    kept: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    infrastructure: list[str] = field(default_factory=list)
    """Runs the executor could not run (a lost engine or node, a refused node): left unfinished, never verdicts."""
    outcomes: dict[str, Counter] = field(default_factory=dict)
    """Per batch: outcome → runs, over every finished record (from before and from this run)."""
    unfinished: dict[str, int] = field(default_factory=dict)
    """Per batch: planned run slots still without a finished record."""


def select(matrix: Matrix, pairs: list[TaskPair], runs: int | None) -> tuple[MatrixPlan, list[Combination],
                                                                            list[tuple[Combination, str]]]:
    """The plan, the combinations that can run here, and those skipped with the reason."""
    matrix_plan = plan_matrix(matrix, [p.id for p in pairs], runs)
    runnable, skipped = [], []
    for combination in matrix_plan.combinations:
        reason = skip_reason(combination)
        if reason:
            skipped.append((combination, reason))
        else:
            runnable.append(combination)
    return matrix_plan, runnable, skipped


def prepare(combinations: list[Combination], pairs: list[TaskPair], k: int, workers: int, runs_root: Path,
            base_images: dict[str, str], markers: bool) -> list[Prepared]:
    """Batch settings for every combination — refused as a whole, before anything runs, when one of its batches was
    made with other settings — and the slots without a finished record of the pair's current content. `markers`:
    note each running sandbox under the batch's in-flight folder (local executor), so a resume after kill -9
    removes what the killed runs left."""
    from calibration.actors import harness_actor

    prepared = []
    for combination in combinations:
        config = harness_config(combination)
        settings = batch_settings(combination, config, k, workers)
        previous = read_settings(runs_root, settings.name)
        if previous is not None and (previous.harness, previous.purpose, previous.runs) != (
                settings.harness, settings.purpose, settings.runs):
            changed = sorted(key for key in set(previous.harness) | set(settings.harness)
                             if previous.harness.get(key) != settings.harness.get(key))
            changed += ["runs"] if previous.runs != settings.runs else []
            raise BadInput(f"{combination.label}: batch {settings.name} was made with other settings "
                             f"({', '.join(changed) or 'purpose'} differ); restore them or rename the matrix")
        item = Prepared(combination, settings, config, OutcomeIndex(records_folder(runs_root, settings.name)))
        actor_factory = partial(harness_actor, combination.harness.name, config)
        in_flight = runs_root / settings.name / IN_FLIGHT if markers else None
        for key, pair, digest in plan(pairs, settings.name, k):
            item.planned[key] = (pair, digest)
            if not is_finished(key.path(runs_root), digest):
                call = partial(run_slot, key, digest, actor_factory, in_flight, base_images[combination.harness.name],
                               config.overtime_reruns, settings.harness)
                item.jobs.append(Job(key, call, (Shipment(pair.folder, digest),)))
        prepared.append(item)
    return prepared


def execute(client, executor, prepared: list[Prepared], skipped: list[tuple[Combination, str]],
            excluded: list[Combination], *, runs_root: Path, base_image: str, workers: int,
            console: Console) -> MatrixOutcome:
    """Run every unfinished slot of every prepared combination on one executor, with one progress display."""
    outcome = MatrixOutcome(prepared, skipped, excluded)
    by_batch = {item.settings.name: item for item in prepared}
    local = executor.name == "local"
    for item in prepared:
        write_settings(runs_root, item.settings)
        if local and (removed := remove_killed_sandboxes(client, runs_root / item.settings.name / IN_FLIGHT)):
            console.print(f"{item.combination.label}: removed {removed} container(s)/network(s) of killed runs")
        repaired = item.index.repair()
        if repaired.indexed or repaired.problems:
            console.print(f"{item.combination.label}: re-indexed {repaired.indexed} record(s)"
                          + "".join(f"\n  {problem}" for problem in repaired.problems))
    secrets = {item.settings.name: secret_values([item.config.key()]) for item in prepared}
    jobs = [job for item in prepared for job in item.jobs]
    planned = sum(len(item.planned) for item in prepared)
    outcome.kept = planned - len(jobs)
    left = {item.settings.name: len(item.jobs) for item in prepared}
    combos_done = sum(1 for count in left.values() if count == 0)
    started = time.monotonic()

    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[status]}"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        combos_bar = progress.add_task("combinations", total=len(prepared), completed=combos_done, status="")
        runs_bar = progress.add_task("runs", total=planned, completed=outcome.kept, status="")

        def refresh(running: int) -> None:
            done = outcome.kept + outcome.ran
            remaining = planned - done
            eta = "—"
            if outcome.ran and remaining:
                eta = _duration((time.monotonic() - started) / outcome.ran * remaining)
            elif not remaining:
                eta = "0s"
            progress.update(runs_bar, completed=done,
                            status=f"running {running} · left {remaining} · ETA {eta}")
            progress.update(combos_bar, completed=sum(1 for count in left.values() if count == 0),
                            status=f"skipped {len(skipped)} · excluded {len(excluded)}")

        def record(finished: Done) -> None:
            key: RunKey = finished.job.key
            item = by_batch[key.batch]
            if finished.error is None:
                data = finished.value
            else:  # the executor could not run it: left unfinished, run again on resume
                pair, digest = item.planned[key]
                data = build_record(key, pair, digest, None, harness=item.settings.harness, policy={}, attempts=[],
                                    error=finished.error_line())
            data["executor"] = finished.provenance
            if isinstance(finished.error, ExecutorError):
                data["infrastructure_error"] = finished.error_line()
                outcome.infrastructure.append(finished.error_line())
            written = item.index.write(key.path(runs_root), data, secrets[key.batch]).outcome
            outcome.ran += 1
            left[key.batch] -= 1
            refresh(0)
            note = f" ({finished.error_line()})" if finished.error else ""
            progress.console.print(f"  {item.combination.label} {key.pair}/{key.side}/{key.index}: {written}{note}",
                                   highlight=False)
            stop_if_engine_lost(executor, finished)

        refresh(0)
        try:
            executor.run(jobs, record, workers=workers, base_image=base_image, on_tick=refresh)
        except KeyboardInterrupt:
            outcome.interrupted = True
        except EngineLost:
            pass
    outcome.seconds = time.monotonic() - started
    for item in prepared:
        rows = [row for row in item.index.rows().rows if RunKey.parse(row.key) in item.planned]
        outcome.outcomes[item.settings.name] = Counter(row.outcome for row in rows if row.finished)
        outcome.unfinished[item.settings.name] = len(item.planned) - sum(1 for row in rows if row.finished)
    return outcome


SUMMARY_HEADER = ("combination", "batch", "status", "finished", "outcomes")


def summary_rows(outcome: MatrixOutcome) -> list[tuple[str, ...]]:
    rows = []
    for item in outcome.prepared:
        name = item.settings.name
        counts = outcome.outcomes.get(name, Counter())
        finished = len(item.planned) - outcome.unfinished.get(name, len(item.planned))
        status = "done" if not outcome.unfinished.get(name) else f"{outcome.unfinished[name]} left"
        rows.append((item.combination.label, name, status, f"{finished}/{len(item.planned)}",
                     ", ".join(f"{kind} {count}" for kind, count in sorted(counts.items()))))
    rows += [(combination.label, "—", f"skipped: {reason}", "—", "") for combination, reason in outcome.skipped]
    rows += [(combination.label, "—", f"excluded: {combination.excluded}", "—", "") for combination in outcome.excluded]
    return rows


def summary_line(outcome: MatrixOutcome) -> str:
    left = sum(outcome.unfinished.values())
    return (f"{len(outcome.prepared)} combination(s) run, {len(outcome.skipped)} skipped, {len(outcome.excluded)} "
            f"excluded; ran {outcome.ran} run(s) in {_duration(outcome.seconds)}, kept {outcome.kept} finished "
            f"before; {left} left")


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"
