"""Always-visible tallies: blueprints per status and per cell, and how many the filter shows."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.widgets import Static

from authoring.blueprint import Status
from authoring.taxonomy import RISKS, SOURCES
from reviewer_tui.widgets.queue_table import STATUS_SHORT


class CountsBar(Static):
    DEFAULT_CSS = """
    CountsBar { height: auto; padding: 0 1; background: $boost; }
    """

    def tally(
        self, by_status: Counter, by_cell: Counter, shown: int, invalid: str, loading: tuple[int, int] | None = None
    ) -> None:
        """`invalid`: what is invalid, in words ("" when nothing); `loading`: (files loaded, files in all) while
        rows are still arriving."""
        text = Text()
        if loading:
            text.append(f"loading {loading[0]} of {loading[1]}  ", style="bold reverse")
        text.append(f"{shown}/{sum(by_status.values())} shown  ", style="bold")
        for status in Status:
            if by_status[status]:
                text.append(f"{STATUS_SHORT[status]} ", style="dim")
                text.append(f"{by_status[status]}  ", style="bold yellow" if status == "needs_review" else "bold")
        if invalid:
            text.append(f"⚠ {invalid} (i)", style="bold red")
        text.append("\ncells S1·S2 ", style="dim")
        for risk in RISKS:
            s1, s2 = (by_cell[f"{risk}-{source}"] for source in SOURCES)
            text.append(f" {risk} ", style="dim")
            text.append(f"{s1}·{s2}")
        self.update(text)
