"""`v3ast stage1 propose | review | report | agreement`: Stage I from the command line."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from authoring.cli.common import demo_note, interruptible, new_or_existing_store, print_rows, project, store_folder
from authoring.cli.completion import blueprint_ids
from authoring.errors import BadInput
from authoring.settings import settings
from authoring.stage1.agreement import agreement_report
from authoring.stage1.inputs import Workspace, load_rubric
from authoring.stage1.propose import RoundResult
from authoring.stage1.propose import propose as run_proposals
from authoring.stage1.providers import PROVIDERS, ProviderConfig, make_provider
from authoring.stage1.report import cell_reports
from authoring.stage1.review import ReviewResult
from authoring.stage1.review import review as run_review
from authoring.stage1.usage import Usage
from authoring.store import BlueprintStore
from authoring.taxonomy import parse_cell

console = Console()

ProviderOption = Annotated[str | None, typer.Option(
    help=f"Model provider: {', '.join(sorted(PROVIDERS))}; default $V3AST_STAGE1_PROVIDER, else openai.")]
ModelOption = Annotated[str | None, typer.Option(help="Model name; default $V3AST_MODEL, else the provider's.")]
BaseUrlOption = Annotated[str | None, typer.Option(
    help="OpenAI-compatible or Anthropic endpoint (vLLM, local); default $V3AST_MODEL_BASE_URL.")]
RecordOption = Annotated[Path | None, typer.Option(help="Record every model exchange to this cassette file.")]
ReplayOption = Annotated[Path | None, typer.Option(help="Replay model exchanges from this cassette file, offline.")]
ConcurrencyOption = Annotated[int, typer.Option(help="Model calls in flight at once.")]
TimeoutOption = Annotated[float | None, typer.Option(
    metavar="SECONDS", help="Seconds to wait for one answer before retrying; default $V3AST_STAGE1_TIMEOUT, else 180.")]


def propose(
    cell: Annotated[str, typer.Option(help="The taxonomy cell, e.g. R5-S2.")],
    rounds: Annotated[int, typer.Option(help="Proposal rounds of 10 candidates each.")] = 1,
    provider: ProviderOption = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    record: RecordOption = None,
    replay: ReplayOption = None,
    concurrency: ConcurrencyOption = 10,
    timeout: TimeoutOption = None,
) -> None:
    """Ask a model for blueprint candidates for one cell; store them as proposed blueprints.

    Each candidate is stored (file + git commit) as its answer arrives, with `[n/N]` progress; an endpoint
    nothing listens at stops the command at its first call."""
    cell = parse_cell(cell, whole=True)
    the_provider = configured_provider(provider, model, base_url, record, replay, timeout)

    def show(result: RoundResult, asked: int, line: str) -> None:
        typer.echo(f"[{len(result.created) + len(result.failed)}/{asked}] round {result.round}: {line}")

    try:
        new_or_existing_store()
        with interruptible():
            results = run_proposals(the_provider, Workspace.of(project()), cell, rounds=rounds,
                                    concurrency=concurrency, progress=show)
    finally:
        the_provider.close()
    for result in results:
        typer.echo(f"{result.cell} round {result.round}: {len(result.created)} proposed "
                   f"({len(result.duplicates)} near-duplicate), {len(result.failed)} failed · {_usage(result.usage)}"
                   f"{demo_note(the_provider)}")
    if not any(r.created for r in results):
        raise typer.Exit(1)


def review(
    ids: Annotated[list[str] | None, typer.Argument(help="Blueprint ids to review.",
                                                    autocompletion=blueprint_ids)] = None,
    pending: Annotated[bool, typer.Option("--pending", help="Review every blueprint with status proposed.")] = False,
    stale: Annotated[bool, typer.Option("--stale", help="Review again every blueprint edited (or moved to another "
                                                        "cell) since its rubric review.")] = False,
    provider: ProviderOption = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    record: RecordOption = None,
    replay: ReplayOption = None,
    concurrency: ConcurrencyOption = 10,
    timeout: TimeoutOption = None,
) -> None:
    """Score proposed blueprints on the rubric; the total moves each to kept, needs_review or dropped.
    With --stale, blueprints edited since their review are scored again (a person's decision stays).

    Each review is recorded (file + git commit) as its answer arrives; SIGINT (Ctrl-C) or SIGTERM stops at once,
    keeps those, leaves the rest proposed, says how far it got and exits 130."""
    store_folder()
    the_provider = configured_provider(provider, model, base_url, record, replay, timeout)

    def show(result: ReviewResult, line: str) -> None:
        typer.echo(f"[{result.done}/{result.total}] {line}")

    try:
        with interruptible():
            result = run_review(the_provider, Workspace.of(project()), ids or [], pending=pending,
                                concurrency=concurrency, progress=show, stale=stale)
    finally:
        the_provider.close()
    spent = f"{_usage(result.usage)}{demo_note(the_provider)}"
    if result.interrupted:
        typer.echo(f"interrupted: {len(result.reviewed)} of {result.total} reviewed, kept: {_kept(result)}; "
                   f"{result.total - result.done} untouched (still proposed) · {spent}", err=True)
        raise typer.Exit(130)
    typer.echo(f"{len(result.reviewed)} reviewed, {len(result.failed)} failed · {spent}")
    if result.failed and not result.reviewed:
        raise typer.Exit(1)


def report(
    as_json: Annotated[bool, typer.Option("--json", help="The per-cell figures as a JSON array.")] = False,
) -> None:
    """Per cell: how many blueprints have each status now, the rubric band of their latest review (an accepted
    blueprint still counts in its band), failures, tokens and cost, and the mean score per dimension."""
    store_folder()
    workspace = Workspace.of(project())
    reports = cell_reports(workspace)
    if as_json:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in reports], indent=1))
        return
    print_rows(console, ("cell", "blueprints", "proposed", "accepted+", "rejected", "near-duplicate"),
               [(r.cell, *map(str, (r.proposed, r.pending, r.accepted, r.rejected, r.duplicates))) for r in reports],
               title="Status now (accepted+: accepted or moved on to implemented, calibrated, admitted)")
    print_rows(console, ("cell", "reviewed", "kept", "review", "dropped"),
               [(r.cell, *map(str, (r.kept + r.review + r.dropped, r.kept, r.review, r.dropped))) for r in reports],
               title="Rubric band of the latest review (whatever the status now)")
    print_rows(console, ("cell", "failed", "tokens", "cost"),
               [(r.cell, str(r.failed), str(r.usage.input_tokens + r.usage.output_tokens),
                 f"${r.usage.cost_usd:.4f}" + ("" if r.usage.cost_known else "*")) for r in reports],
               title="Model calls (failed: candidates or reviews malformed or failed)")
    dimensions = load_rubric(workspace.rubric).dimension_ids
    print_rows(console, ("dimension", *[r.cell for r in reports]),
               [(d, *[f"{r.mean_scores[d]:.2f}" if d in r.mean_scores else "–" for r in reports]) for d in dimensions],
               title="Mean score per dimension (latest reviews)")
    if any(not r.usage.cost_known for r in reports):
        typer.echo("* a model without a listed price was costed at $0")


def agreement_command(
    worst: Annotated[int, typer.Option(help="How many of the strongest disagreements to list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Every figure as one JSON object.")] = False,
) -> None:
    """How far the rubric agrees with the curators' decisions: Cohen's κ of its band (kept → accept,
    dropped → reject; the review band predicts nothing) and Spearman's ρ of its scores against accept/reject,
    per cell and per dimension, and the blueprints where they disagree most."""
    folder = store_folder()
    workspace = Workspace.of(project())
    blueprints, _ = BlueprintStore(folder).load_all()
    found = agreement_report(blueprints, load_rubric(workspace.rubric).dimension_ids, worst)
    if as_json:
        typer.echo(json.dumps(asdict(found), indent=1, default=str))
        return
    if not found.overall.pairs:
        typer.echo(f"no blueprint has both a rubric review and a person's accept/reject yet "
                   f"({found.undecided} reviewed, undecided)")
        return
    print_rows(console, ("cell", "decided", "κ (kept/dropped)", "agreed", "n", "ρ total", "review band: acc/rej"),
               [(name, str(figures.pairs), _figure(figures.kappa), _percent(figures.raw_agreement),
                 str(figures.kappa_pairs), _figure(figures.rho_total), _band_split(figures))
                for name, figures in [*found.per_cell.items(), ("all", found.overall)]],
               title="Rubric against people")
    typer.echo("agreed: the share of the n kept or dropped blueprints whose band was the people's decision; κ is that "
               "share corrected for chance (0: no better than chance, 1: every one)")
    typer.echo("ρ per dimension: " + ", ".join(f"{d} {_figure(r)}" for d, r in found.rho_per_dimension.items()))
    if found.disagreements:
        print_rows(console, ("id", "cell", "rubric", "people", "by", "reason"),
                   [(p.id, p.cell, f"{p.total}/30 {p.band}", "accepted" if p.accepted else "rejected", p.actor,
                     p.reason) for p in found.disagreements], title="Strongest disagreements")
    typer.echo(f"{found.undecided} reviewed blueprint(s) not decided yet are left out")


def configured_provider(provider: str | None, model: str | None, base_url: str | None, record: Path | None,
                        replay: Path | None, timeout: float | None = None):
    """The provider the options name, each option not given taken from the settings; it says each retry on
    stderr."""
    environment = settings()
    if timeout is not None and timeout <= 0:
        raise BadInput("--timeout must be more than 0 seconds")
    provider = provider or environment.stage1_provider
    options = {"model": model, "base_url": base_url, "record": record, "replay": replay,
               "request_timeout": timeout or environment.stage1_timeout}
    given = {name: value for name, value in options.items() if value is not None}
    config = ProviderConfig(**given) if provider == "demo" else ProviderConfig.configured(**given)
    return make_provider(provider, config, on_retry=lambda line: typer.echo(line, err=True))


def _kept(result: ReviewResult) -> str:
    """What an interrupted review leaves recorded."""
    reviewed, failed = len(result.reviewed), len(result.failed)
    kept = [f"the {reviewed} review{'s' * (reviewed != 1)} recorded"] if reviewed else []
    kept += [f"{failed} failure record{'s' * (failed != 1)}"] if failed else []
    return " and ".join(kept) or "nothing"


def _band_split(figures) -> str:
    return f"{figures.in_review_band['accepted']}/{figures.in_review_band['rejected']}"


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _usage(usage: Usage) -> str:
    cost = f"${usage.cost_usd:.4f}" + ("" if usage.cost_known else " (unknown price, counted as $0)")
    return (f"{usage.input_tokens + usage.output_tokens} tokens, {cost}, {usage.calls} calls, "
            f"{usage.retries} retried, {usage.malformed} malformed")
