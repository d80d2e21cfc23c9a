"""The invalid blueprint files and what is wrong with each, to read again at any time (`i`)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class ProblemsScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,i", "dismiss", "Close", tooltip="Close the list")]

    def __init__(self, problems: list[str], summary: str):
        super().__init__()
        self.problems = problems
        self.summary = summary

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="problems-dialog"):
            if not self.problems:
                yield Static("Every blueprint file is valid.   (esc closes)")
                return
            yield Static(f"[b]{self.summary}[/b]   "
                         "(esc closes; `v3ast blueprints check` lists them too)")
            yield Static(Text("\n".join(self.problems)))
