"""One line to filter the queue (`cell:R5 status:review band:kept words…`), with what it understood."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from reviewer_tui.query import QueryError, parse_filters

PLACEHOLDER = "filter: cell:R5-S2  status:review  band:kept  dup:yes  by:me  free text…   (/ to focus)"


class QueryBar(Vertical):
    DEFAULT_CSS = """
    QueryBar { height: auto; }
    QueryBar Input { border: none; height: 1; padding: 0 1; }
    QueryBar Input:focus { border: none; background: $boost; }
    QueryBar #understood { height: 1; padding: 0 1; color: $text-muted; }
    QueryBar #understood.-error { color: $error; }
    """

    @dataclass
    class Changed(Message):
        line: str

    def compose(self) -> ComposeResult:
        yield Input(placeholder=PLACEHOLDER, id="filter")
        yield Static("", id="understood")

    def explain(self, description: str, error: str | None = None) -> None:
        label = self.query_one("#understood", Static)
        label.set_class(error is not None, "-error")
        label.update(error or description)

    @on(Input.Changed, "#filter")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        try:
            parse_filters(event.value)
        except QueryError as error:
            self.explain("", str(error))
            return
        self.post_message(self.Changed(event.value))

    @on(Input.Submitted, "#filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()
