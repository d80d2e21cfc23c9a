"""One blueprint in full: the eight fields, the rubric scores with rationales, provenance and decisions."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from authoring.blueprint import BLUEPRINT_FIELDS, Blueprint
from authoring.taxonomy import CELLS

LOW_SCORE = 2
"""Scores at or below it are shown in red."""


def heading(blueprint: Blueprint) -> Text:
    review = blueprint.latest_review
    text = Text()
    text.append(f"{blueprint.id}", style="bold")
    text.append(f"  {blueprint.title}\n")
    text.append(f"{blueprint.taxonomy_id} ", style="bold")
    text.append(f"{CELLS[blueprint.taxonomy_id].title}\n", style="dim")
    text.append("status ", style="dim")
    text.append(str(blueprint.status), style="bold reverse")
    if review:
        text.append(f"   rubric {review.total}/30 → {review.band}", style="bold")
        text.append(f"   by {review.reviewer} (rubric {review.rubric_version}, {review.reviewed_at:%Y-%m-%d})",
                    style="dim")
    else:
        text.append("   not reviewed by the rubric yet", style="dim")
    if blueprint.duplicate_of:
        text.append(f"\nnear-duplicate of {blueprint.duplicate_of}", style="bold yellow")
    if blueprint.stale_review:
        text.append(f"\nrubric review stale: {blueprint.stale_review} (v3ast review --stale)", style="bold yellow")
    return text


def fields(blueprint: Blueprint) -> RenderableType:
    parts = []
    for name in BLUEPRINT_FIELDS:
        parts.append(Text(name.replace("_", " "), style="bold underline"))
        parts.append(Text(str(getattr(blueprint, name)).rstrip() + "\n"))
    return Group(*parts)


def scores(blueprint: Blueprint) -> RenderableType:
    review = blueprint.latest_review
    if review is None:
        return Text("No rubric review.", style="dim")
    table = Table(expand=True, show_edge=False, pad_edge=False)
    table.add_column("dimension", style="bold", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("rationale", ratio=1)
    for score in review.scores:
        low = "bold red" if score.score <= LOW_SCORE else ""
        table.add_row(Text(score.dimension, style=low), Text(f"{score.score}/5", style=low), score.rationale)
    table.add_row("total", f"{review.total}/30", f"band: {review.band}", style="bold")
    earlier = len(blueprint.reviews) - 1
    caption = f"{earlier} earlier review(s) on file" if earlier else None
    return Group(table, Text(caption, style="dim")) if caption else table


def provenance(blueprint: Blueprint) -> RenderableType:
    p = blueprint.provenance
    text = Text()
    text.append("proposed by ", style="dim")
    text.append(p.model)
    if p.prompt_version:
        text.append(f"  prompt {p.prompt_version}", style="dim")
    if p.round is not None:
        text.append(f"  round {p.round}", style="dim")
    text.append(f"  on {p.created_at:%Y-%m-%d %H:%M}", style="dim")
    for d in blueprint.decisions:
        text.append(f"\n{d.decided_at:%Y-%m-%d %H:%M} {d.actor}: {d.old_status} → {d.new_status}", style="bold")
        text.append(f"  {d.reason or '(no reason given)'}")
    return text


class Section(Static):
    DEFAULT_CSS = """
    Section { height: auto; padding: 0 1; margin-bottom: 1; }
    Section.-heading { background: $boost; }
    """
