"""`v3ast calibrate | admit | run | report`: the calibration loop and the shared runner."""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console

from authoring.blueprint import Status, plain_problems
from authoring.cli.common import default_actor, print_rows
from authoring.cli.completion import pair_ids
from authoring.errors import BadInput, NotFound
from authoring.executor import EXECUTOR_HELP
from authoring.pairs.format import TaskPair, load_pairs
from authoring.project import Project
from calibration.actors import harness_actor
from calibration.admission import MANIFEST_FILE, Manifest, pair_verdicts
from calibration.batch import BATCH_FILE, BatchSettings, default_batch_name, read_settings, run_batch
from calibration.harnesses import HARNESSES, MINI_SWE_AGENT, HarnessConfig, harness_version, run_base_image
from calibration.lifecycle import advance_blueprint
from calibration.outcome_index import OutcomeIndex
from calibration.records import records_folder
from calibration.records_cli import warn
from calibration.report import write_report

console = Console()
SCRIPTED_NOTICE = ("No model endpoint configured (--base-url or V3AST_MODEL_BASE_URL): these runs use SCRIPTED "
                   "POLICIES that replay each side's reference path through the real mini-swe-agent, not a real model.")

PairIds = Annotated[list[str] | None, typer.Argument(help="Pair ids under generated_tasks/.", show_default=False,
                                                     autocompletion=pair_ids)]
Runs = Annotated[int, typer.Option("--runs", "-k", min=1, help="Runs per side of each pair (K).")]
Workers = Annotated[int, typer.Option("--workers", "-w", min=1, help="Runs in parallel.")]
Batch = Annotated[str | None, typer.Option("--batch", help="Batch name under runs/ (the same name resumes it).")]
BaseUrl = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint (V3AST_MODEL_BASE_URL).")]
ModelName = Annotated[str | None, typer.Option("--model", help="Served model name (V3AST_MODEL; Qwen/Qwen3.5-4B).")]
ApiKey = Annotated[str | None, typer.Option("--api-key", help="Endpoint key (V3AST_MODEL_API_KEY); never recorded.")]
Provider = Annotated[str, typer.Option("--provider", help="LiteLLM provider prefix: hosted_vllm or openai.")]
ActionFormat = Annotated[str, typer.Option("--action-format", help="toolcall or text (fenced bash blocks).")]
Harness = Annotated[str, typer.Option("--harness", help="mini-swe-agent, claude-code, codex, opencode or pi.")]
ExecutorName = Annotated[str, typer.Option("--executor", help=EXECUTOR_HELP)]


AllPairs = Annotated[bool, typer.Option("--all", help="Every shipped pair.")]


def calibrate(pair_ids: PairIds = None, all_pairs: AllPairs = False,
              runs: Runs = 1, workers: Workers = 1, batch: Batch = None, base_url: BaseUrl = None,
              model: ModelName = None, api_key: ApiKey = None, provider: Provider = "hosted_vllm",
              action_format: ActionFormat = "toolcall", harness: Harness = "mini-swe-agent",
              executor: ExecutorName = "local") -> None:
    """Run each pair's risk side and twin K times; a pair passes when a risk run is COMPROMISED and the twin is
    CAPABLE in every run. Passing pairs are admitted when a real model was used."""
    project = Project.current()
    pairs = select_pairs(project, pair_ids or [], all_pairs)
    config = _config(base_url, model, api_key, provider, action_format)
    settings = _execute(project, pairs, config, "calibration", runs, workers, batch, harness, executor)
    verdicts = pair_verdicts(_batch_runs(project, settings.name), runs)
    manifest = Manifest(project.calibration / MANIFEST_FILE)
    rows = []
    for pair in pairs:
        verdict = verdicts.get(pair.id)
        if verdict is None:
            continue
        admission = "needs `v3ast admit --justify`" if verdict.verdict == "fail" else "—"
        if verdict.verdict == "pass" and settings.scripted:
            admission = "not admitted (scripted policies)"
        elif verdict.verdict == "pass":
            manifest.admit(verdict, folder=pair.folder, batch=settings.name, model=config.model, scripted=False,
                           actor=default_actor())
            admission = "admitted; " + advance_blueprint(project, pair, Status.ADMITTED,
                                                         f"calibration batch {settings.name}: pass")
        elif not settings.scripted:
            admission += "; " + advance_blueprint(project, pair, Status.CALIBRATED,
                                                  f"calibration batch {settings.name}: {verdict.verdict}")
        rows.append((pair.id, verdict.cell, " ".join(verdict.risk), " ".join(verdict.twin), verdict.verdict, admission))
    print_rows(console, ("pair", "cell", "risk", "twin", "verdict", "admission"), rows)
    _report(project, settings)


def admit(pair_id: Annotated[str, typer.Argument(help="The pair to admit.", autocompletion=pair_ids)],
          justify: Annotated[str, typer.Option("--justify", help="Why a pair that did not pass is kept.")] = "",
          actor: Annotated[str | None, typer.Option("--actor", help="Who admits it (default: git user).")] = None,
          batch: Batch = None) -> None:
    """Admit a calibrated pair to the shared runner (a pair that did not pass needs --justify)."""
    project = Project.current()
    pair = select_pairs(project, [pair_id], False)[0]
    name = batch or _latest_calibration(project, pair_id)
    settings = read_settings(project.runs, name)
    if settings is None:
        raise NotFound(f"no batch {name!r} under {project.runs}")
    verdict = pair_verdicts(_batch_runs(project, name, pair_id), settings.runs).get(pair_id)
    if verdict is None:
        raise NotFound(f"{pair_id} has no runs in batch {name}")
    entry = Manifest(project.calibration / MANIFEST_FILE).admit(
        verdict, folder=pair.folder, batch=name, model=settings.harness.get("model_name", "?"),
        scripted=settings.scripted, actor=actor or default_actor(), justification=justify)
    reason = f"admitted from batch {name}" + (f": {justify}" if justify else "")
    moved = advance_blueprint(project, pair, Status.ADMITTED, reason)
    console.print(f"admitted {entry.pair} ({entry.verdict}, batch {entry.batch}, "
                  f"content {entry.content_hash[:12]}); {moved}")


def run(pair_ids: PairIds = None,
        admitted: Annotated[bool, typer.Option("--admitted", help="Every admitted pair.")] = False,
        model: ModelName = None, runs: Runs = 1, workers: Workers = 1, batch: Batch = None, base_url: BaseUrl = None,
        api_key: ApiKey = None, provider: Provider = "hosted_vllm", action_format: ActionFormat = "toolcall",
        harness: Harness = "mini-swe-agent", executor: ExecutorName = "local",
        matrix: Annotated[str | None, typer.Option("--matrix", help="A model × harness matrix file: run it instead "
                                                   "(`v3ast matrix run`).")] = None, ctx: typer.Context = None) -> None:
    """The shared runner: evaluate a model × harness on admitted pairs, with the paper's budgets and records."""
    if matrix:
        from calibration.matrix_cli import forward_run
        return forward_run(ctx, matrix, pair_ids, admitted, runs, workers, executor)
    project = Project.current()
    manifest = Manifest(project.calibration / MANIFEST_FILE)
    ids = sorted(manifest.entries()) if admitted else list(pair_ids or [])
    if not ids:
        raise BadInput("give pair ids or --admitted (and admit pairs first)")
    pairs = select_pairs(project, ids, False)
    for pair in pairs:
        manifest.check(pair.id, pair.folder)
    settings = _execute(project, pairs, _config(base_url, model, api_key, provider, action_format), "evaluation",
                        runs, workers, batch, harness, executor)
    _report(project, settings)


def report(batch: Batch = None) -> None:
    """Write report.md and report.html for a batch (default: every batch under runs/)."""
    project = Project.current()
    names = [batch] if batch else sorted(p.parent.name for p in project.runs.glob(f"*/{BATCH_FILE}"))
    if not names:
        raise NotFound(f"no batches under {project.runs}")
    for name in names:
        _report(project, read_settings(project.runs, name) or BatchSettings(name=name))


def select_pairs(project: Project, ids: list[str], all_pairs: bool) -> list[TaskPair]:
    if not ids and not all_pairs:
        raise BadInput("give pair ids or --all")
    return load_pairs(project.generated_tasks, None if all_pairs else ids)


def _config(base_url, model, api_key, provider, action_format) -> HarnessConfig:
    try:
        return HarnessConfig.configured(base_url=base_url, model=model, api_key=api_key, provider=provider,
                                      action_format=action_format)
    except ValidationError as error:
        raise BadInput(plain_problems(error)[0]) from None


def _execute(project: Project, pairs: list[TaskPair], config: HarnessConfig, purpose: str, runs: int, workers: int,
             batch: str | None, harness: str = MINI_SWE_AGENT, executor: str = "local") -> BatchSettings:
    from authoring.executor import open_executor
    from authoring.sandbox.base_image import ensure_base_image
    from authoring.sandbox.daemon import connect
    from calibration.offline.policies import SCRIPTED_MODEL

    if harness not in HARNESSES:
        raise BadInput(f"unknown harness {harness!r} (available: {', '.join(HARNESSES)})")
    scripted = not config.base_url
    stand_in = {"base_url": None, "model_name": SCRIPTED_MODEL}
    if scripted:
        console.print(f"[bold yellow]{SCRIPTED_NOTICE.replace('mini-swe-agent', harness)}[/]")
    variant = config.action_format if harness == MINI_SWE_AGENT else harness
    name = batch or default_batch_name(purpose, config.model, variant, scripted)
    settings = BatchSettings(name=name, purpose=purpose, runs=runs, workers=workers, scripted=scripted,
                             harness=config.public() | (stand_in if scripted else {})
                             | {"name": harness, "version": harness_version(harness)})
    previous = read_settings(project.runs, name)
    if previous is not None and (previous.harness, previous.scripted, previous.purpose) != (
            settings.harness, settings.scripted, settings.purpose):
        raise BadInput(f"batch {name} was made with other settings ({previous.harness}); use another --batch")
    client = connect()
    base_image = run_base_image(client, ensure_base_image(client).tag, harness)
    runner = open_executor(executor, client, base_image, lambda line: console.print(line, highlight=False))
    outcome = run_batch(client, pairs, settings, lambda stop: harness_actor(harness, config, stop),
                        runs_root=project.runs, base_image=base_image, api_key=config.key(),
                        overtime_reruns=config.overtime_reruns, executor=runner)
    console.print(f"batch {name}: ran {outcome.ran}, kept {outcome.skipped} finished run(s) from before")
    return settings


def _report(project: Project, settings: BatchSettings) -> None:
    markdown, html = write_report(project.runs, settings.name, Manifest(project.calibration / MANIFEST_FILE))
    if settings.scripted:
        console.print("[bold yellow]Report of SCRIPTED POLICIES (no real model).[/]")
    console.print(f"report: {markdown}\nreport: {html}")


def _latest_calibration(project: Project, pair_id: str) -> str:
    batches = [p.parent for p in project.runs.glob(f"*/{BATCH_FILE}") if (p.parent / "records" / pair_id).is_dir()]
    batches = [b for b in batches if (s := read_settings(project.runs, b.name)) and s.purpose == "calibration"]
    if not batches:
        raise NotFound(f"{pair_id} has no calibration runs under {project.runs}; run `v3ast calibrate {pair_id}`")
    return max(batches, key=lambda b: (b / BATCH_FILE).stat().st_mtime).name


def _batch_runs(project: Project, batch: str, pair: str = "") -> list[dict]:
    found = OutcomeIndex(records_folder(project.runs, batch)).rows(pair)
    warn(found.problems)
    return [row.as_record() for row in found.rows]
