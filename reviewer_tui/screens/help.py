"""Every key binding of the app and of the screen underneath, with what it does."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reviewer_tui.widgets.query_bar import PLACEHOLDER


def binding_table(title: str, bindings: list[Binding]) -> Table:
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column("key", style="bold")
    table.add_column("does")
    for binding in bindings:
        keys = ", ".join(_key(k) for k in binding.key.split(","))
        table.add_row(keys, binding.tooltip or binding.description)
    return table


def _key(key: str) -> str:
    return {"question_mark": "?", "slash": "/", "escape": "esc", "pageup": "pgup", "pagedown": "pgdn"}.get(key, key)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close help")]

    def compose(self) -> ComposeResult:
        from reviewer_tui.screens.detail import DetailScreen
        from reviewer_tui.screens.edit import EditScreen
        from reviewer_tui.screens.queue import QueueScreen
        from reviewer_tui.screens.reason import ReasonScreen
        from reviewer_tui.widgets.queue_table import QueueTable

        sections = [
            ("Everywhere", self.app.BINDINGS),
            ("Queue", QueueScreen.BINDINGS),
            ("Queue table", QueueTable.BINDINGS),
            ("Blueprint", DetailScreen.BINDINGS),
            ("Edit", EditScreen.BINDINGS),
            ("Reason prompt", [*ReasonScreen.BINDINGS, Binding("enter", "", "Record the decision")]),
        ]
        with VerticalScroll(id="help-dialog"):
            yield Static("[b]Keys[/b]   (esc closes)")
            for title, bindings in sections:
                yield Static(binding_table(title, [b for b in bindings if isinstance(b, Binding)]))
            yield Static(f"[b]Filter line[/b]\n{PLACEHOLDER}\ncell: takes R5-S2, R5 or S2; "
                         "status:/band: take any unique part of a name (as the command line does); "
                         "dup:yes/no near-duplicates (≈), stale:yes edited since the rubric review (✎); "
                         "by:NAME decided by someone, by:me by you; other words must all appear.")
