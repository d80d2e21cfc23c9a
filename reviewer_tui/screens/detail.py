"""One blueprint in full, its git history, and decisions; reloads itself when its file changes on disk."""

from __future__ import annotations

from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from authoring.audit import HistoryEntry
from authoring.blueprint import Blueprint, Status
from authoring.store import BlueprintNotFound
from reviewer_tui.messages import BlueprintsChanged
from reviewer_tui.reviewer import Seen, look
from reviewer_tui.screens.bindings import DECISION_BINDINGS, HELP_BINDING
from reviewer_tui.widgets.blueprint_view import Section, fields, heading, provenance, scores
from reviewer_tui.widgets.history_list import HistoryList

DISK_POLL_SECONDS = 1.0


class DetailScreen(Screen):
    TITLE = "Blueprint"
    BINDINGS = [
        HELP_BINDING,
        *DECISION_BINDINGS,
        Binding("e", "edit", "Edit", tooltip="Edit the eight fields (validated before saving)"),
        Binding("n", "step(1)", "Next", tooltip="The next blueprint of the queue, in its order when you opened this "
                                                 "view (a decision moves on to it too)"),
        Binding("p", "step(-1)", "Previous", tooltip="The previous blueprint of the queue, in that order"),
        Binding("escape,q", "app.pop_screen", "Back", tooltip="Back to the queue"),
    ]

    def __init__(self, blueprint_id: str, walk: list[str] | None = None, shown: Callable[[str], None] | None = None):
        """`walk`: the queue's blueprints in its order when it opened this view, which n, p and each decision move
        along (a decision moves a row or filters it out of the queue, not out of the walk); `shown(id)` is told
        each blueprint shown."""
        super().__init__()
        self.blueprint_id = blueprint_id
        self.walk = walk if walk and blueprint_id in walk else [blueprint_id]
        self.shown = shown
        self.seen: Seen | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="detail"):
            yield Section(id="heading", classes="-heading")
            yield Static("Rubric", classes="section-title")
            yield Section(id="scores")
            yield Static("The eight fields", classes="section-title")
            yield Section(id="fields")
            yield Static("Provenance and decisions", classes="section-title")
            yield Section(id="provenance")
            yield Static("History (git)", classes="section-title")
            yield HistoryList(id="history")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.blueprint_id
        self.reload()
        self.query_one("#detail").focus()
        self.set_interval(DISK_POLL_SECONDS, self.watch_disk)

    def reload(self) -> None:
        try:
            self.seen = look(self.app.store, self.blueprint_id)
        except BlueprintNotFound:
            self.notify(f"{self.blueprint_id} is gone from the store", severity="error")
            return
        blueprint = self.seen.blueprint
        self.query_one("#heading", Section).update(heading(blueprint))
        self.query_one("#scores", Section).update(scores(blueprint))
        self.query_one("#fields", Section).update(fields(blueprint))
        self.query_one("#provenance", Section).update(provenance(blueprint))
        self.load_history()

    @work(thread=True, exclusive=True, group="history")
    def load_history(self) -> None:
        entries = self.app.store.history(self.blueprint_id)
        self.app.call_from_thread(self._show_history, entries)

    def _show_history(self, entries: list[HistoryEntry]) -> None:
        self.query_one(HistoryList).show(entries)

    def watch_disk(self) -> None:
        if self.seen is None or not self.is_current:
            return
        try:
            now = look(self.app.store, self.blueprint_id)
        except Exception:
            return
        if now.digest != self.seen.digest:
            self.reload()
            self.app.reload_one(self.blueprint_id)
            self.notify(f"{self.blueprint_id} changed on disk: reloaded", severity="warning")

    @on(BlueprintsChanged)
    def _changed(self, event: BlueprintsChanged) -> None:
        if event.blueprint_id in (None, self.blueprint_id):
            self.reload()

    def action_decide(self, status: str) -> None:
        """Decide, then move on to the next blueprint of the walk, as the queue moves its cursor on."""
        if self.seen is None:
            return
        following = self.along(1)

        def move_on(updated: Blueprint) -> None:
            if following is None:
                self.notify("that was the last blueprint of the queue")
            else:
                self.show(following)

        self.app.decide(self.blueprint_id, Status(status), seen=self.seen, then=move_on)

    def along(self, step: int) -> str | None:
        """The next (step 1) or previous (-1) blueprint of the walk still in the store, if any."""
        index = self.walk.index(self.blueprint_id)
        ahead = self.walk[index + 1:] if step > 0 else self.walk[:index][::-1]
        return next((i for i in ahead if i in self.app.catalog.rows), None)

    def action_step(self, step: int) -> None:
        following = self.along(step)
        if following is None:
            self.notify("no more blueprints that way in the queue")
            return
        self.show(following)

    def show(self, blueprint_id: str) -> None:
        self.blueprint_id = blueprint_id
        self.sub_title = blueprint_id
        self.seen = None
        self.query_one(HistoryList).show([])
        self.reload()
        self.query_one("#detail").scroll_home(animate=False)
        if self.shown is not None:
            self.shown(blueprint_id)

    def action_edit(self) -> None:
        from reviewer_tui.screens.edit import EditScreen

        if self.seen is not None:
            self.app.push_screen(EditScreen(self.seen))
