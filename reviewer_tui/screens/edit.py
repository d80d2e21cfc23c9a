"""Edit the eight fields in multi-line editors; saved only when valid and not changed on disk meanwhile."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static, TextArea

from authoring.blueprint import BLUEPRINT_FIELDS
from authoring.store import NothingChanged
from authoring.taxonomy import CELLS
from reviewer_tui.messages import BlueprintsChanged
from reviewer_tui.reviewer import NOT_WRITTEN, ChangedOnDisk, InvalidEdit, Seen, changed_since

SINGLE_LINE = {"taxonomy_id", "source_reference"}


class EditScreen(Screen):
    TITLE = "Edit"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True, tooltip="Validate against the schema and commit"),
        Binding("escape", "leave", "Back", tooltip="Back to the blueprint (twice to discard unsaved text)"),
    ]

    def __init__(self, seen: Seen):
        super().__init__()
        self.seen = seen
        self.armed_discard = False
        self.warned_disk = False
        self.move_confirmed_to: str | None = None
        """The cell a second ctrl+s confirmed moving the blueprint to."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="edit-problems")
        with VerticalScroll(id="editors"):
            for name in BLUEPRINT_FIELDS:
                yield Label(name.replace("_", " "), classes="editor-label")
                editor = TextArea(str(getattr(self.seen.blueprint, name)), id=f"edit-{name}", soft_wrap=True)
                editor.set_class(name in SINGLE_LINE, "-single")
                yield editor
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.seen.blueprint.id
        self.query_one(TextArea).focus()
        self.set_interval(1.0, self.watch_disk)

    def texts(self) -> dict[str, str]:
        found = {name: self.query_one(f"#edit-{name}", TextArea).text for name in BLUEPRINT_FIELDS}
        return {name: text.strip() if name in SINGLE_LINE else text for name, text in found.items()}

    def unsaved(self) -> list[str]:
        """The fields whose text differs from the blueprint's."""
        return [f for f, text in self.texts().items() if text != getattr(self.seen.blueprint, f)]

    @property
    def dirty(self) -> bool:
        return bool(self.unsaved())

    def show_problems(self, lines: list[str]) -> None:
        panel = self.query_one("#edit-problems", Static)
        panel.set_class(bool(lines), "-shown")
        panel.update("\n".join(lines))

    def watch_disk(self) -> None:
        if not self.warned_disk and changed_since(self.app.store, self.seen):
            self.warned_disk = True
            self.show_problems(["This blueprint changed on disk since you opened the editor. Your text is kept;",
                                "saving refuses any field that changed on disk (fields you did not touch are safe)."])

    def _move_unconfirmed(self) -> bool:
        """Moving to another cell changes what the blueprint is about: say so once, save on the second ctrl+s."""
        cell = self.texts()["taxonomy_id"]
        if cell not in CELLS or cell == self.seen.blueprint.taxonomy_id or cell == self.move_confirmed_to:
            return False  # an unknown cell is refused by the schema on saving
        self.move_confirmed_to = cell
        stale = (" Its rubric review was scored for the old cell and is marked stale: `v3ast review --stale` "
                 "reviews it again." if self.seen.blueprint.reviews else "")
        self.show_problems([f"This moves {self.seen.blueprint.id} from {self.seen.blueprint.taxonomy_id} to {cell}: "
                            f"its file moves to {cell}/ and its history goes with it.{stale}",
                            "ctrl+s again to move it; esc to go back."])
        return True

    def action_save(self) -> None:
        self.save()

    def save(self) -> bool:
        """Save and close; whether it was saved (if not, the editor says why and keeps the text)."""
        if self._move_unconfirmed():
            return False
        try:
            updated = self.app.reviewer.save_edit(self.seen, self.texts())
        except InvalidEdit as error:
            self.show_problems(["Not saved — the schema refuses this edit:", *error.problems])
            return False
        except (ChangedOnDisk, ValueError) as error:
            self.show_problems([f"Not saved: {error}"])
            return False
        except NOT_WRITTEN as error:
            self.show_problems([f"Not saved — {error}.", "Your text is kept: ctrl+s again to retry."])
            return False
        except NothingChanged:
            updated = self.seen.blueprint
        if updated == self.seen.blueprint:
            self.notify("nothing to save")
            return False
        self.app.catalog.put(updated)
        self.app.broadcast(BlueprintsChanged(updated.id))
        self.notify(f"saved {updated.id} (one commit by {self.app.reviewer.actor})")
        self.dismiss()
        return True

    def action_leave(self) -> None:
        if self.dirty and not self.armed_discard:
            self.armed_discard = True
            self.show_problems(["Unsaved changes: ctrl+s saves, esc again discards them."])
            return
        self.dismiss()
