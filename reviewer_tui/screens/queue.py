"""The queue: every blueprint, human-review band first, filtered and sorted from the keyboard."""

from __future__ import annotations

from dataclasses import replace
from time import perf_counter

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from authoring.blueprint import Status
from reviewer_tui.messages import BlueprintsChanged, RowsArrived
from reviewer_tui.query import Query, QueryError, counts, sort_keys
from reviewer_tui.screens.bindings import DECISION_BINDINGS, HELP_BINDING
from reviewer_tui.screens.detail import DetailScreen
from reviewer_tui.widgets.counts_bar import CountsBar
from reviewer_tui.widgets.query_bar import QueryBar
from reviewer_tui.widgets.queue_table import QueueTable

BULK_BINDINGS = [
    Binding("A", "decide_all('accepted')", "Accept all", show=False,
            tooltip="Accept every blueprint the filter shows, with one reason (asks, showing the count)"),
    Binding("R", "decide_all('rejected')", "Reject all", show=False,
            tooltip="Reject every blueprint the filter shows, with one reason"),
    Binding("B", "decide_all('needs_review')", "All back to review", show=False,
            tooltip="Send every blueprint the filter shows back to review, with one reason"),
]


class QueueScreen(Screen):
    TITLE = "Queue"
    BINDINGS = [
        HELP_BINDING,
        Binding("slash", "focus_filter", "Filter", tooltip="Type a filter: cell:, status:, band:, words"),
        Binding("escape", "leave_filter", "Table", show=False, tooltip="Back to the table from the filter line"),
        Binding("s", "cycle_sort", "Sort", tooltip="Next order: triage, total, date, each rubric dimension"),
        Binding("S", "flip_sort", "Reverse", show=False, tooltip="Reverse the order"),
        *DECISION_BINDINGS,
        *BULK_BINDINGS,
        Binding("i", "app.problems", "Invalid files", show=False, tooltip="List the invalid blueprint files again"),
        Binding("ctrl+r", "reload", "Reload", show=False, tooltip="Re-read the store (only changed files are parsed)"),
        Binding("q", "app.quit", "Quit", tooltip="Quit"),
    ]

    def __init__(self):
        super().__init__()
        self.query_state = Query()
        self.after_decision: tuple[str, str | None] | None = None
        """(the blueprint being decided, the row after it): once decided, the cursor goes to that next row."""
        self.last_show_seconds = 0.0
        """How long the last filter or sort took to compute and lay out (for the benchmark)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield CountsBar(id="counts")
        yield QueryBar(id="query-bar")
        yield Static("", id="queue-header")
        yield QueueTable(id="queue")
        yield Footer()

    def on_mount(self) -> None:
        self.query_state = replace(self.query_state, me=self.app.reviewer.actor)
        self.table.focus()
        self.show_rows()

    @property
    def table(self) -> QueueTable:
        return self.query_one(QueueTable)

    def show_rows(self, keep: str | None = None) -> None:
        started = perf_counter()
        catalog = self.app.catalog
        rows = self.query_state.apply(catalog.rows.values())
        extra = self.query_state.sort if self.query_state.sort not in ("triage", "total", "date") else None
        self.table.show(rows, extra, keep)
        self.query_one("#queue-header", Static).update(self.table.header())
        by_status, by_cell = counts(catalog.rows.values())
        loading = catalog.loading
        self.query_one(CountsBar).tally(by_status, by_cell, len(rows), catalog.invalid_summary(),
                                        loading=(loading.done, loading.total) if loading else None)
        self.query_one(QueryBar).explain(self.query_state.describe())
        self.last_show_seconds = perf_counter() - started

    def on_resize(self) -> None:
        self.call_after_refresh(lambda: self.query_one("#queue-header", Static).update(self.table.header()))

    @on(QueryBar.Changed)
    def _filter(self, event: QueryBar.Changed) -> None:
        try:
            self.query_state = self.query_state.with_filters(event.line)
        except QueryError as error:
            self.query_one(QueryBar).explain("", str(error))
            return
        self.show_rows(keep=self.table.current.id if self.table.current else None)

    @on(QueueTable.Opened)
    def _open(self, event: QueueTable.Opened) -> None:
        self.app.push_screen(DetailScreen(event.row.id, walk=[r.id for r in self.table.rows], shown=self.point_at))

    @on(BlueprintsChanged)
    @on(RowsArrived)
    def _changed(self, event: BlueprintsChanged | RowsArrived) -> None:
        index, current = self.table.cursor, self.table.current
        if (isinstance(event, BlueprintsChanged) and self.after_decision
                and event.blueprint_id == self.after_decision[0]):
            decided, following = self.after_decision
            self.after_decision = None
            self.show_rows(keep=following or decided)
            return
        self.show_rows(keep=current.id if current else None)
        if current and (self.table.current is None or self.table.current.id != current.id):
            self.table.cursor = min(index, max(len(self.table.rows) - 1, 0))

    def action_focus_filter(self) -> None:
        self.query_one("#filter").focus()

    def action_leave_filter(self) -> None:
        self.table.focus()

    def action_cycle_sort(self) -> None:
        keys = sort_keys(self.app.catalog.rows.values())
        following = (keys[(keys.index(self.query_state.sort) + 1) % len(keys)] if self.query_state.sort in keys
                     else keys[0])
        self._resort(sort=following, descending=True)

    def action_flip_sort(self) -> None:
        self._resort(sort=self.query_state.sort, descending=not self.query_state.descending)

    def _resort(self, **change) -> None:
        self.query_state = replace(self.query_state, **change)
        self.show_rows(keep=self.table.current.id if self.table.current else None)

    def action_decide(self, status: str) -> None:
        row = self.table.current
        if row is None:
            return
        if not self.app.catalog.is_current(row):
            self.app.reload_one(row.id)
            self.notify(f"{row.id} changed on disk; the row is refreshed — look again", severity="warning")
            return
        rows = self.table.rows
        following = rows[self.table.cursor + 1].id if self.table.cursor + 1 < len(rows) else None
        self.after_decision = (row.id, following)
        self.app.decide(row.id, Status(status))

    def action_decide_all(self, status: str) -> None:
        rows = list(self.table.rows)
        if not rows:
            self.notify("the filter shows no blueprint")
            return
        self.app.decide_all(rows, Status(status), self.query_state.describe())

    def point_at(self, blueprint_id: str) -> None:
        """Put the cursor on the blueprint the detail view shows, if the queue shows it."""
        ids = [r.id for r in self.table.rows]
        if blueprint_id in ids:
            self.table.cursor = ids.index(blueprint_id)
            self.table.scroll_to_cursor()

    def action_reload(self) -> None:
        self.app.reload_all()
