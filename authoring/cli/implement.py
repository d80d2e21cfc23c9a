"""`v3ast implement`: Stage II from the command line — accepted blueprints become validated task pairs."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.console import Console

from authoring.cli import completion
from authoring.cli.common import print_rows, progress_bar, project, store
from authoring.errors import BadInput
from authoring.executor import EXECUTOR_HELP
from authoring.settings import settings

console = Console()


def implement(
    blueprint_ids: Annotated[list[str] | None, typer.Argument(help="Accepted blueprints to implement.",
                                                              autocompletion=completion.blueprint_ids)] = None,
    accepted: Annotated[bool, typer.Option("--accepted", help="Every accepted blueprint.")] = False,
    workers: Annotated[int, typer.Option(help="Blueprints implemented at once.")] = 1,
    model: Annotated[str | None, typer.Option(help="The model's name at the endpoint; default $V3AST_MODEL, "
                                                      "else gpt-4.1.")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible (…/v1) or Anthropic endpoint; default "
                                                         "$V3AST_MODEL_BASE_URL.")] = None,
    provider: Annotated[str | None, typer.Option(help="Wire format of the endpoint: openai or anthropic; demo = a "
                                                         "scripted agent that writes a copy of a shipped pair (no "
                                                         "model). Default $V3AST_STAGE2_PROVIDER, else "
                                                         "openai.")] = None,
    max_repair_rounds: Annotated[int, typer.Option(help="Feedback rounds after the first submission.")] = 3,
    round_steps: Annotated[int, typer.Option(help="Model calls per round.")] = 100,
    retry_failed: Annotated[bool, typer.Option(
        "--retry-failed", help="Start a new attempt for blueprints that failed before.")] = False,
    executor: Annotated[str, typer.Option("--executor", help=EXECUTOR_HELP)] = "local",
) -> None:
    """Have a coding agent implement each blueprint as a task pair; keep only pairs that pass lint and validation."""
    from authoring.executor import open_executor
    from authoring.offline.stage2_agent import demo_endpoint
    from authoring.sandbox.daemon import connect
    from authoring.stage2.attempt import ImplementConfig
    from authoring.stage2.batch import implement_batch, select
    from authoring.stage2.model import PROVIDERS, ModelSettings

    provider = provider or settings().stage2_provider
    if provider == "demo":
        typer.echo("Stage II with the DEMO agent: a scripted model writes a copy of the toolkit's shipped pair of "
                   "the blueprint's cell through the real mini-swe-agent; no model is involved.")
        with demo_endpoint() as url:
            return implement(blueprint_ids, accepted, workers, "scripted-demo", url, "openai", max_repair_rounds,
                             round_steps, retry_failed, executor)
    if provider not in PROVIDERS:
        raise BadInput(f"unknown provider {provider!r} (available: {', '.join(PROVIDERS)}, demo)")
    endpoint = ModelSettings.configured(provider=provider, model=model, base_url=base_url)
    config = ImplementConfig(model=endpoint,
                             max_repair_rounds=max_repair_rounds, round_steps=round_steps)
    the_store = store()
    blueprints = select(the_store, blueprint_ids or [], accepted=accepted)
    if not blueprints:
        typer.echo("no accepted blueprints to implement")
        return
    client = connect()
    runner = open_executor(executor, client, config.base_image, lambda line: console.print(line, highlight=False))
    started = time.monotonic()
    with progress_bar(console) as progress:
        task = progress.add_task("implementing", total=len(blueprints))

        def done(outcome) -> None:
            status = f"skipped ({outcome.skipped})" if outcome.skipped else outcome.result.status
            progress.console.print(f"{outcome.blueprint_id}: {status}", highlight=False)
            progress.advance(task)

        outcomes = implement_batch(client, project(), the_store, blueprints, config, workers=workers,
                                   retry_failed=retry_failed, on_done=done, executor=runner)
    print_summary(outcomes, time.monotonic() - started)
    if any(o.result is not None and not o.skipped and o.result.status != "implemented" for o in outcomes):
        raise typer.Exit(1)


def print_summary(outcomes: list, seconds: float) -> None:
    rows = []
    counts: dict[str, int] = {}
    tokens = cost = 0.0
    for outcome in sorted(outcomes, key=lambda o: o.blueprint_id):
        result = outcome.result
        status = "skipped" if outcome.skipped else result.status
        counts[status] = counts.get(status, 0) + 1
        if result is None or outcome.skipped:
            rows.append((outcome.blueprint_id, status, "", "", "", "", "", outcome.skipped))
            continue
        used = result.input_tokens + result.output_tokens
        tokens, cost = tokens + used, cost + result.cost_usd
        rows.append((outcome.blueprint_id, status, str(result.repair_rounds), str(result.model_calls), str(used),
                     f"${result.cost_usd:.4f}", f"{result.seconds:.0f}", result.reason[:120]))
    print_rows(console, ("blueprint", "status", "repair rounds", "calls", "tokens", "cost", "seconds", "why"), rows)
    tally = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
    console.print(f"{tally} · {int(tokens)} tokens · ${cost:.4f} (unknown prices count as $0) · {seconds:.0f} s wall")
