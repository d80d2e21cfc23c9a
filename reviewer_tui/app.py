"""The reviewer app: holds the store, the catalog of rows and the reviewer's session; global keys."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from time import monotonic

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.message import Message

from authoring.blueprint import Blueprint, IllegalTransition, Status
from authoring.decisions import refusal
from authoring.store import BlueprintNotFound, BlueprintStore
from authoring.taxonomy import CELLS
from reviewer_tui.catalog import Catalog, Row, parse_files, parse_in_parts
from reviewer_tui.messages import BlueprintsChanged, RowsArrived
from reviewer_tui.reviewer import NOT_WRITTEN, ChangedOnDisk, Reviewer, Seen, conflict_message, look
from reviewer_tui.screens.edit import EditScreen
from reviewer_tui.screens.help import HelpScreen
from reviewer_tui.screens.queue import QueueScreen
from reviewer_tui.screens.quit import SAVE, QuitScreen
from reviewer_tui.screens.reason import ReasonScreen

BACKGROUND_FROM = 200
"""Files to parse from which the queue is painted first and filled while they are parsed."""
REFRESH_SECONDS = 0.25
"""How often the queue redraws while rows arrive."""
STORE_POLL_SECONDS = 1.0
"""How often the app looks whether the store changed on disk (19 folder stats and the git reflog's)."""
VERBS = {Status.ACCEPTED: "Accept", Status.REJECTED: "Reject", Status.NEEDS_REVIEW: "Send back to review"}
INTERRUPTED = 130
"""The exit code of a session ended by SIGINT."""


def store_signature(store: BlueprintStore) -> tuple[int | None, ...]:
    """Changes whenever a blueprint file is created, replaced (every atomic write renames) or removed,
    or a commit or checkout moves git's HEAD — without looking at a single blueprint file."""
    places = [store.folder, *(store.folder / cell for cell in CELLS), Path(store.audit.repo.git_dir) / "logs" / "HEAD"]
    stamps = []
    for place in places:
        try:
            stamps.append(os.stat(place).st_mtime_ns)
        except OSError:
            stamps.append(None)
    return tuple(stamps)


@dataclass
class BulkOutcome:
    """What one bulk decision did: how many were written, and why each other row was left alone."""

    status: Status
    asked: int
    written: int = 0
    skipped: list[str] = field(default_factory=list)
    stopped: str = ""
    """Why the rest was not attempted (a write the store refused), if it stopped early."""

    def summary(self) -> str:
        text = f"{self.status}: {self.written} of {self.asked} written, one commit each"
        if self.skipped:
            text += f"; {len(self.skipped)} skipped — " + "; ".join(self.skipped[:3])
            text += " …" if len(self.skipped) > 3 else ""
        if self.stopped:
            text += f". Stopped: {self.stopped}; the rest are untouched — decide again to retry"
        return text


def changes_line(changes: list[tuple[Row | None, Row | None]]) -> str:
    """Who changed what, as far as the rows tell: decisions with their actor, edits, new and removed files."""
    parts = []
    for before, after in changes[:4]:
        if after is None:
            parts.append(f"{before.id} removed")
        elif before is None:
            parts.append(f"{after.id} new ({after.status})")
        elif after.last_decision != before.last_decision:
            parts.append(f"{after.id} decided by {after.last_decision}")
        elif before.status != after.status:
            parts.append(f"{after.id} {before.status} → {after.status}")
        else:
            parts.append(f"{after.id} edited")
    more = f" and {len(changes) - 4} more" if len(changes) > 4 else ""
    return f"changed on disk: {', '.join(parts)}{more}"


class ReviewerApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "v3ast reviewer"
    BINDINGS = [
        Binding("question_mark", "help", "Help", show=False, tooltip="Every key, on every screen"),
        Binding("u", "undo", "Undo", tooltip="Take back your last decision, or every decision of your last bulk "
                                             "decision (new decisions; git keeps both)"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True,
                tooltip="Quit (asks first whether to save an unsaved edit; so does SIGINT)"),
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
        self.store_seen = store_signature(store)
        self.bulk_running = False

    def on_mount(self) -> None:
        self.sub_title = f"{self.store.folder.name} · as {self.reviewer.actor}"
        loaded = self._load_now()
        self.push_screen(QueueScreen())
        if loaded:
            self._report_problems()
        else:
            self.fill_catalog()
        self.set_interval(STORE_POLL_SECONDS, self.watch_store)
        self.sigint_before = signal.getsignal(signal.SIGINT)
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.call_later, self.request_quit, INTERRUPTED)

    def on_unmount(self) -> None:
        asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
        if self.sigint_before is not None:
            signal.signal(signal.SIGINT, self.sigint_before)

    async def action_quit(self) -> None:
        self.request_quit()

    def request_quit(self, code: int = 0) -> None:
        """Quit with `code`; with an unsaved edit, only once the person chose to save or discard it."""
        if isinstance(self.screen, QuitScreen):
            return
        editors = [s for s in self.screen_stack if isinstance(s, EditScreen) and s.dirty]
        if not editors:
            self.exit(return_code=code)
            return
        editor = editors[-1]

        def answer(choice: str | None) -> None:
            if choice is None:
                return
            if choice != SAVE:
                self.reviewer.session.discarded += len(editors)
                self.exit(return_code=code)
                return
            while self.screen is not editor:
                self.pop_screen()
            if editor.save():
                self.request_quit(code)

        fields = ", ".join(f.replace("_", " ") for f in editor.unsaved())
        self.push_screen(QuitScreen(f"{editor.seen.blueprint.id} has an unsaved edit of {fields}."), answer)

    def watch_store(self) -> None:
        """Take in what others changed on disk: files are stat'ed (in a thread) only when a cell folder or
        git's HEAD moved, and only changed files are parsed. The queue redraws and keeps its cursor."""
        if self.bulk_running or self.catalog.loading is not None:
            return
        now = store_signature(self.store)
        if now == self.store_seen:
            return
        self.store_seen = now
        self.scan_store(list(self.catalog.rows.values()))

    @work(thread=True, exclusive=True, group="watch")
    def scan_store(self, rows: list[Row]) -> None:
        changed, gone = self.catalog.changes_on_disk(rows)
        if not changed and not gone:
            return
        if len(changed) >= max(self.background_from, 1):
            self.call_from_thread(self.reload_all)
            return
        self.call_from_thread(self._take_changes, parse_files(changed), gone)

    def _take_changes(self, results: list, gone: list[str]) -> None:
        if self.catalog.loading is not None:
            self.store_seen = None  # the pass under way may predate these changes: look again when it is done
            return
        current = [(name, result) for name, result in results if not isinstance(result, Row)
                   or self.catalog.is_current(result)]
        if len(current) < len(results):
            self.store_seen = None  # a file rewritten since it was parsed: the next tick looks again
        invalid = self.catalog.invalid_summary()
        changes = self.catalog.apply_changes(current, [name for name in gone if not os.path.exists(name)])
        if changes or self.catalog.invalid_summary() != invalid:
            self.broadcast(RowsArrived())
        if changes:
            self.notify(changes_line(changes), severity="warning", timeout=8)

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
            self.notify(f"{self.catalog.invalid_summary()} (i lists them again):\n{shown}", severity="error")

    def action_problems(self) -> None:
        from reviewer_tui.screens.problems import ProblemsScreen

        self.push_screen(ProblemsScreen(self.catalog.problems, self.catalog.invalid_summary()))

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

    def decide(self, blueprint_id: str, status: Status, seen: Seen | None = None,
               then: Callable[[Blueprint], None] | None = None) -> None:
        """Ask the reason, then record the decision through the store — unless the file moved under us;
        `then(updated)` once it is written."""
        seen = seen or look(self.store, blueprint_id)
        current = seen.blueprint.status
        refused = refusal(current, status)
        if refused:
            self.notify(f"{blueprint_id}: {refused}", severity="error")
            return
        why = self.reviewer.needs_reason(seen, status)
        question = f"{VERBS[status]} {blueprint_id}?  ({current} → {status})"

        def record(reason: str | None) -> None:
            if reason is None:
                self.notify("no decision recorded")
                return
            try:
                updated = self.reviewer.decide(seen, status, reason)
            except ChangedOnDisk:
                self.kept_reasons[(blueprint_id, status)] = reason
                self.notify(conflict_message(self.store, seen), severity="warning", timeout=12)
                self.reload_one(blueprint_id)
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
            if then is not None:
                then(updated)

        kept = self.kept_reasons.get((blueprint_id, status), "")
        self.push_screen(ReasonScreen(question, required=bool(why), why_required=why, reason=kept), record)

    def decide_all(self, rows: list[Row], status: Status, described: str) -> None:
        """One decision with one reason over every row the filter shows: asked once with the count, then
        written blueprint by blueprint (one commit each, all or nothing each), in a thread."""
        eligible = [row for row in rows if not refusal(Status(row.status), status)]
        if not eligible:
            self.notify(f"none of the {len(rows)} shown can become {status}", severity="warning")
            return
        others = len(rows) - len(eligible)
        question = (f"{VERBS[status]} all {len(eligible)} blueprint(s) shown ({described})?"
                    + (f"  {others} shown cannot become {status} and are left alone." if others else ""))

        def record(reason: str | None) -> None:
            if reason is None:
                self.notify("no decision recorded")
                return
            self.bulk_running = True
            self.write_all(eligible, status, reason)

        kept = self.kept_reasons.get(("", status), "")
        screen = ReasonScreen(question, required=True, why_required=f"it is recorded on each of the {len(eligible)}",
                              reason=kept)
        self.push_screen(screen, record)

    @work(thread=True, exclusive=True, group="bulk")
    def write_all(self, rows: list[Row], status: Status, reason: str) -> BulkOutcome:
        outcome = BulkOutcome(status, len(rows))
        batch = self.reviewer.new_batch()
        try:
            for row in rows:
                if not self.catalog.is_current(row):
                    outcome.skipped.append(f"{row.id} changed on disk since the queue showed it")
                    continue
                try:
                    seen = look(self.store, row.id)
                    updated = self.reviewer.decide(seen, status, reason, batch=batch)
                except NOT_WRITTEN as error:
                    outcome.stopped = str(error)
                    break
                except ChangedOnDisk:
                    outcome.skipped.append(conflict_message(self.store, seen))
                    continue
                except (LookupError, ValueError) as error:
                    outcome.skipped.append(f"{row.id}: {error}")
                    continue
                outcome.written += 1
                self.call_from_thread(self._bulk_wrote, updated, outcome)
        finally:
            self.call_from_thread(self._bulk_done, outcome, reason)
        return outcome

    def _bulk_wrote(self, updated, outcome: BulkOutcome) -> None:
        self.catalog.put(updated)
        if outcome.written % 10 == 1 or outcome.written == outcome.asked:
            self.broadcast(RowsArrived())

    def _bulk_done(self, outcome: BulkOutcome, reason: str) -> None:
        self.bulk_running = False
        if outcome.stopped:
            self.kept_reasons[("", outcome.status)] = reason
        else:
            self.kept_reasons.pop(("", outcome.status), None)
        self.broadcast(RowsArrived())
        problem = outcome.stopped or outcome.skipped
        self.notify(outcome.summary(), severity="error" if outcome.stopped else "warning" if problem else "information",
                    timeout=12)

    def action_undo(self) -> None:
        if self.bulk_running:
            self.notify("a bulk write is running; undo when it is done", severity="warning")
            return
        if self.reviewer.last_is_bulk:
            self.bulk_running = True
            self.undo_bulk()
            return
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

    @work(thread=True, exclusive=True, group="bulk")
    def undo_bulk(self) -> None:
        result = None
        try:
            result = self.reviewer.undo_bulk(lambda updated: self.call_from_thread(self.catalog.put, updated))
        finally:
            self.call_from_thread(self._bulk_undone, result)

    def _bulk_undone(self, result) -> None:
        self.bulk_running = False
        self.broadcast(RowsArrived())
        if result is not None:
            self.notify(result.summary(), severity="error" if result.stopped else
                        "warning" if result.skipped else "information", timeout=12)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())
