"""`v3ast redteam PAIR` (adversarial review), `v3ast redteam settle PAIR PROPOSAL_ID`, `v3ast redteam show PAIR`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from authoring.cli.common import default_actor, interruptible, print_rows, project
from authoring.cli.completion import pair_ids
from authoring.errors import BadInput, NotFound
from authoring.pairs.format import load_pairs
from authoring.settings import settings

console = Console(soft_wrap=True)


class RunByDefault(TyperGroup):
    """`v3ast redteam PAIR …` is `v3ast redteam run PAIR …`; `settle` and `show` are sub-commands."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=RunByDefault, no_args_is_help=True,
                  help="Adversarial review: a model proposes alternative paths, the detectors judge them, a person "
                       "settles every disagreement.")


def records_root():
    return project().runs / "redteam"


def default_provider(base_url: str | None) -> str:
    """openai when an endpoint or key is configured, anthropic with only its key, else the demo proposals."""
    environment = settings()
    if base_url or environment.model_base_url or environment.vendor_key("openai"):
        return "openai"
    return "anthropic" if environment.vendor_key("anthropic") else "demo"


def make_proposer(provider: str | None, model: str | None, base_url: str | None, pair_id: str,
                  record: Path | None = None, replay: Path | None = None):
    from authoring.redteam.prompt import templates_folder
    from authoring.redteam.proposers import DemoProposer, ModelProposer, model_provider
    from authoring.stage1.providers import ProviderConfig

    base_url = base_url or settings().model_base_url
    provider = provider or default_provider(base_url)
    templates = templates_folder(project().templates)
    if provider == "demo":
        return DemoProposer(templates / "demo", pair_id)
    if record and replay:
        raise BadInput("give either --record or --replay, not both")
    config = ProviderConfig.configured(model=model, base_url=base_url, record=record, replay=replay)
    return ModelProposer(model_provider(provider, config), templates)


@app.command("run")
def run(
    pair_id: Annotated[str, typer.Argument(help="The pair to attack (a folder under generated_tasks/).",
                                            autocompletion=pair_ids)],
    provider: Annotated[str | None, typer.Option(help="openai, anthropic or demo (scripted proposals, no model); "
                                                         "default: openai/anthropic when configured, "
                                                         "else demo.")] = None,
    model: Annotated[str | None, typer.Option(help="Model name; default $V3AST_MODEL or the provider's.")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible or Anthropic endpoint.")] = None,
    per_kind: Annotated[int, typer.Option(help="Proposals asked for per kind.")] = 3,
    workers: Annotated[int, typer.Option(help="Proposal runs at once.")] = 1,
    record: Annotated[Path | None, typer.Option(help="Record every model exchange to this cassette file.")] = None,
    replay: Annotated[Path | None, typer.Option(help="Replay model exchanges from this cassette, offline.")] = None,
) -> None:
    """Ask for alternative paths of each kind, run each through the real runner, report every disagreement."""
    from authoring.redteam.review import review
    from authoring.sandbox.base_image import BASE_IMAGE
    from authoring.sandbox.daemon import connect

    pair = load_pairs(project().generated_tasks, [pair_id])[0]
    proposer = make_proposer(provider, model, base_url, pair.id, record, replay)
    if proposer.demo:
        typer.echo(f"demo proposals, no model: scripted paths from {proposer.path}")

    def opened(session, resumed: bool) -> None:
        done = len(session.runs())
        typer.echo(f"{'resuming' if resumed else 'session'} {session.folder}"
                   + (f" ({len(session.proposals())} proposals, {done} already run)" if resumed else ""))

    def ran(proposal, record) -> None:
        verdict = record.error or f"{record.observed} (expected {record.expected}) in {record.seconds:.0f} s"
        typer.echo(f"  ran {proposal.id}: {verdict}")

    try:
        with interruptible():
            session, rows = review(connect(), records_root(), pair, proposer, per_kind=per_kind, workers=workers,
                                   base_image=BASE_IMAGE, on_run=ran, on_open=opened)
    finally:
        proposer.close()
    report(pair.id, session, rows, demo=proposer.demo)


@app.command("show")
def show(pair_id: Annotated[str, typer.Argument(help="The pair whose latest red-team session to show.",
                                                autocompletion=pair_ids)]) -> None:
    """The latest session's table, with what has been settled since."""
    from authoring.redteam.records import sessions
    from authoring.redteam.review import rows

    pair = load_pairs(project().generated_tasks, [pair_id])[0]
    found = sessions(records_root(), pair.id)
    if not found:
        raise NotFound(f"no red-team session for {pair.id} (run `v3ast redteam {pair.id}` first)")
    session = found[-1]
    typer.echo(f"session {session.folder}")
    report(pair.id, session, rows(session, pair), demo=session.info.proposer == "demo")


@app.command("settle")
def settle(
    pair_id: Annotated[str, typer.Argument(help="The pair.", autocompletion=pair_ids)],
    proposal_id: Annotated[str, typer.Argument(help="A proposal id from the report, e.g. risk.harmful-….")],
    keep: Annotated[bool, typer.Option("--keep", help="Keep it in the pair as reference/<kind>-<slug>.sh.")] = False,
    expectation_wrong: Annotated[bool, typer.Option(
        "--expectation-wrong", help="The verdict was right; the proposer's expectation was not.")] = False,
    reason: Annotated[str, typer.Option(help="Why (required with --expectation-wrong).")] = "",
    actor: Annotated[str | None, typer.Option(help="Who settles; default: git user.name.")] = None,
) -> None:
    """Settle a proposal: keep it as a new reference path (then rehash), or record the expectation as wrong."""
    from authoring.redteam.settle import settle as settle_proposal

    if keep == expectation_wrong:
        raise typer.BadParameter("give --keep or --expectation-wrong (one of them)")
    pair = load_pairs(project().generated_tasks, [pair_id])[0]
    settlement = settle_proposal(records_root(), pair, proposal_id, keep=keep, reason=reason,
                                 actor=actor or default_actor())
    if keep:
        typer.echo(f"kept {proposal_id} as {pair.folder / settlement.reference} (pair rehashed); "
                   f"check it with: v3ast validate {pair.id} --only '{settlement.reference.split('/')[-1][:-3]}'")
    else:
        typer.echo(f"recorded: the expectation of {proposal_id} was wrong ({settlement.reason})")


def report(pair_id: str, session, rows, *, demo: bool) -> None:
    header = ("kind", "proposal", "expected", "observed", "")
    table = [(row.proposal.kind, row.proposal.id, row.expected,
              row.run.observed or "error" if row.run else "-",
              row.status + (f" ({row.settled})" if row.settled else "")) for row in rows]
    colours = {"agree": "green", "DISAGREE": "red", "error": "red", "failed": "yellow", "pending": "yellow"}
    print_rows(console, header, table, markup=lambda row: [*map(escape, row[:4]),
                                                           f"[{colours[row[4].split()[0]]}]{escape(row[4])}[/]"])
    for row in rows:
        if row.open and row.run is not None:
            console.print(f"[red]{escape(row.proposal.id)}[/red]: {escape(row.proposal.rationale)}\n"
                          f"  evidence: {escape(row.run.error or row.run.evidence)}", highlight=False)
        elif row.proposal.failed:
            console.print(f"[yellow]{escape(row.proposal.id)}[/yellow]: {escape(row.proposal.error)}", highlight=False)
    counts = {status: sum(r.status == status for r in rows) for status in ("agree", "DISAGREE", "error", "failed",
                                                                          "pending")}
    unsettled = sum(r.open for r in rows)
    seconds = [r.run.seconds for r in rows if r.run and not r.run.error]
    mean = f", {sum(seconds) / len(seconds):.1f} s per run" if seconds else ""
    console.print(f"{len(rows)} proposals: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n)
                  + f"; {unsettled} unsettled{mean} · {session.folder}"
                  + (" · demo proposals, no model" if demo else ""),
                  highlight=False)
    if unsettled:
        console.print(f"settle each: v3ast redteam settle {pair_id} PROPOSAL_ID "
                      "--keep | --expectation-wrong --reason TEXT",
                      highlight=False)
        raise typer.Exit(1)
