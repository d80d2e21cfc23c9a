"""The reviewer app: holds the store, the catalog of rows and the reviewer's session; global keys."""

from __future__ import annotations

import asyncio
from pathlib import Path
from time import monotonic

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.message import Message

from authoring.blueprint import TRANSITIONS, IllegalTransition, Status
from authoring.store import BlueprintNotFound, BlueprintStore

from reviewer_tui.catalog import Catalog, parse_files, parse_in_parts
from reviewer_tui.messages import BlueprintsChanged, RowsArrived
from reviewer_tui.reviewer import NOT_WRITTEN, ChangedOnDisk, Reviewer, Seen, look
from reviewer_tui.screens.help import HelpScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.reason import ReasonScreen

BACKGROUND_FROM = 200
"""Files to parse from which the queue is painted first and filled while they are parsed."""
REFRESH_SECONDS = 0.25
"""How often the queue redraws while rows arrive."""
VERBS = {Status.ACCEPTED: "Accept", Status.REJECTED: "Reject", Status.NEEDS_REVIEW: "Send back to review"}


class ReviewerApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "v3ast reviewer"
    BINDINGS = [
        Binding("question_mark", "help", "Help", show=False, tooltip="Every key, on every screen"),
        Binding("u", "undo", "Undo", tooltip="Take back your last decision (a new decision; git keeps both)"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, tooltip="Quit"),
    ]

    def __init__(
        self,
        store: BlueprintStore,
        actor: str,
        cache_path: Path | None = None,
        *,
        background_from: int = BACKGROUND_FROM,
        workers: int | None = None,
    ):
        super().__init__()
        self.store = store
        self.catalog = Catalog(store, cache_path)
        self.reviewer = Reviewer(store, actor)
        self.background_from = background_from
        """Files to parse from which they are parsed in the background (0: always)."""
        self.parse_workers = workers
        """Worker processes for a background load (None: one per CPU; 0 or 1: a thread)."""
        self.kept_reasons: dict[tuple[str, Status], str] = {}
        """Reasons typed for a decision that could not be written, offered again on the retry."""

    def on_mount(self) -> None:
        self.sub_title = f"{self.store.folder.name} · as {self.reviewer.actor}"
        loaded = self._load_now()
        self.push_screen(QueueScreen())
        if loaded:
            self._report_problems()
        else:
            self.fill_catalog()

    def _load_now(self) -> bool:
        """Start a pass over the store; finish it at once when few files need parsing."""
        loading = self.catalog.start()
        if loading.stale and len(loading.stale) >= self.background_from:
            return False
        self.catalog.take(parse_files(loading.stale))
        self.catalog.finish()
        return True

    @work(exclusive=True, group="catalog")
    async def fill_catalog(self, reload: bool = False) -> None:
        """Parse the files of the pass under way in parts; the queue shows each part's rows as it comes."""
        loading = self.catalog.loading
        assert loading is not None
        redrawn = 0.0
        async for results in parse_in_parts(loading.stale, self.parse_workers):
            self.catalog.take(results)
            if monotonic() - redrawn >= REFRESH_SECONDS:
                self.broadcast(RowsArrived())
                redrawn = monotonic()
        write = self.catalog.finish(write=False)
        self.broadcast(BlueprintsChanged(None) if reload else RowsArrived())
        if reload:
            self._report_reload()
        else:
            self._report_problems()
        if write:
            await asyncio.to_thread(self.catalog.write_cache, list(self.catalog.rows.values()))

    def _report_problems(self) -> None:
        if self.catalog.problems:
            shown = "\n".join(self.catalog.problems[:5])
            self.notify(f"{len(self.catalog.problems)} problem(s) in blueprint files:\n{shown}", severity="error")

    def _report_reload(self) -> None:
        self.notify(f"reloaded: {len(self.catalog.rows)} blueprints, {self.catalog.parsed} file(s) parsed")

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
        loading = self.catalog.loading
        if loading is not None:
            self.notify(f"still loading ({loading.done} of {loading.total} files): reload when it is done")
            return
        if self._load_now():
            self.broadcast(BlueprintsChanged(None))
            self._report_reload()
        else:
            self.broadcast(RowsArrived())
            self.fill_catalog(reload=True)

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
            except NOT_WRITTEN as error:
                self.kept_reasons[(blueprint_id, status)] = reason
                self.notify(f"{blueprint_id} is still {current}: {status} was not written — {error}. "
                            "Your reason is kept: decide again to retry.", severity="error", timeout=12)
                return
            except (IllegalTransition, ValueError) as error:
                self.notify(str(error), severity="error")
                return
            self.kept_reasons.pop((blueprint_id, status), None)
            self.catalog.put(updated)
            self.broadcast(BlueprintsChanged(blueprint_id))
            self.notify(f"{blueprint_id}: {current} → {status}, committed as {self.reviewer.actor}")

        why = f"it overturns the rubric's {band}" if required else ""
        kept = self.kept_reasons.get((blueprint_id, status), "")
        self.push_screen(ReasonScreen(question, required=required, why_required=why, reason=kept), record)

    def action_undo(self) -> None:
        try:
            updated, back = self.reviewer.undo()
        except LookupError as error:
            self.notify(str(error))
            return
        except NOT_WRITTEN as error:
            self.notify(f"nothing undone — {error}. Press u again to retry.", severity="error", timeout=12)
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
