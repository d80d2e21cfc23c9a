"""The blueprint's audit trail as git tells it: every commit that touched its file."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from authoring.audit import HistoryEntry


class HistoryList(Static):
    DEFAULT_CSS = """
    HistoryList { height: auto; padding: 0 1; }
    """

    def show(self, entries: list[HistoryEntry]) -> None:
        text = Text()
        if not entries:
            text.append("No commits yet.", style="dim")
        for entry in entries:
            subject, _, body = entry.message.partition("\n")
            text.append(f"{entry.sha[:8]} ", style="yellow")
            text.append(f"{entry.when:%Y-%m-%d %H:%M} ", style="dim")
            text.append(f"{entry.author}  ", style="bold")
            text.append(subject)
            reason = next((line for line in body.splitlines() if line.startswith("reason:")), "")
            if reason:
                text.append(f"\n    {reason}", style="italic")
            text.append("\n")
        self.update(text)
