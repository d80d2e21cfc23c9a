"""The reviewer app: holds the store, the catalog of rows and the reviewer's session; global keys."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.message import Message

from authoring.blueprint import TRANSITIONS, IllegalTransition, Status
from authoring.store import BlueprintNotFound, BlueprintStore

from reviewer_tui.catalog import Catalog
from reviewer_tui.messages import BlueprintsChanged
from reviewer_tui.reviewer import ChangedOnDisk, Reviewer, Seen, look
from reviewer_tui.screens.help import HelpScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.reason import ReasonScreen

VERBS = {Status.ACCEPTED: "Accept", Status.REJECTED: "Reject", Status.NEEDS_REVIEW: "Send back to review"}


class ReviewerApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "v3ast reviewer"
    BINDINGS = [
        Binding("question_mark", "help", "Help", tooltip="Every key, on every screen"),
        Binding("u", "undo", "Undo", tooltip="Take back your last decision (a new decision; git keeps both)"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, tooltip="Quit"),
    ]

    def __init__(self, store: BlueprintStore, actor: str, cache_path: Path | None = None):
        super().__init__()
        self.store = store
        self.catalog = Catalog(store, cache_path)
        self.reviewer = Reviewer(store, actor)

    def on_mount(self) -> None:
        self.sub_title = f"{self.store.folder.name} · as {self.reviewer.actor}"
        self.catalog.load()
        self.push_screen(QueueScreen())
        if self.catalog.problems:
            shown = "\n".join(self.catalog.problems[:5])
            self.notify(f"{len(self.catalog.problems)} problem(s) in blueprint files:\n{shown}", severity="error")

    def broadcast(self, message: Message) -> None:
        for screen in self.screen_stack:
            screen.post_message(message)

    def reload_one(self, blueprint_id: str) -> None:
        try:
            self.catalog.put(self.store.get(blueprint_id))
        except BlueprintNotFound:
            self.catalog.rows.pop(blueprint_id, None)
        self.broadcast(BlueprintsChanged(blueprint_id))

    def reload_all(self) -> None:
        self.catalog.load()
        self.broadcast(BlueprintsChanged(None))
        self.notify(f"reloaded: {len(self.catalog.rows)} blueprints, {self.catalog.parsed} file(s) parsed")

    def decide(self, blueprint_id: str, status: Status, seen: Seen | None = None) -> None:
        """Ask the reason, then record the decision through the store — unless the file moved under us."""
        seen = seen or look(self.store, blueprint_id)
        current = seen.blueprint.status
        if status not in TRANSITIONS[current]:
            self.notify(f"{blueprint_id} is {current}: cannot become {status}", severity="error")
            return
        required = self.reviewer.needs_reason(seen, status)
        band = seen.blueprint.latest_review.band if seen.blueprint.latest_review else None
        question = f"{VERBS[status]} {blueprint_id}?  ({current} → {status})"

        def record(reason: str | None) -> None:
            if reason is None:
                self.notify("no decision recorded")
                return
            try:
                updated = self.reviewer.decide(seen, status, reason)
            except ChangedOnDisk as error:
                self.reload_one(blueprint_id)
                self.notify(str(error), severity="warning")
                return
            except (IllegalTransition, ValueError) as error:
                self.notify(str(error), severity="error")
                return
            self.catalog.put(updated)
            self.broadcast(BlueprintsChanged(blueprint_id))
            self.notify(f"{blueprint_id}: {current} → {status}, committed as {self.reviewer.actor}")

        why = f"it overturns the rubric's {band}" if required else ""
        self.push_screen(ReasonScreen(question, required=required, why_required=why), record)

    def action_undo(self) -> None:
        try:
            updated, back = self.reviewer.undo()
        except LookupError as error:
            self.notify(str(error))
            return
        except (ChangedOnDisk, IllegalTransition, ValueError) as error:
            self.notify(str(error), severity="error")
            return
        self.catalog.put(updated)
        self.broadcast(BlueprintsChanged(updated.id))
        self.notify(f"undone: {updated.id} is {back} again (recorded as a new decision)")

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())
