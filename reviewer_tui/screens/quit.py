"""Asked on quitting with an unsaved edit: save it, discard it, or stay."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

SAVE, DISCARD = "save", "discard"


class QuitScreen(ModalScreen[str | None]):
    """Dismisses with SAVE, DISCARD, or None to stay."""

    BINDINGS = [
        Binding("s", "answer('save')", "Save", tooltip="Save the edit, then quit"),
        Binding("d", "answer('discard')", "Discard", tooltip="Quit without saving the edit"),
        Binding("escape,c", "answer('')", "Cancel", tooltip="Stay, with the edit as it is"),
    ]

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="quit-dialog"):
            yield Label(self.question, id="quit-question")
            with Horizontal(id="quit-buttons"):
                yield Button("Save and quit (s)", id=SAVE, variant="primary")
                yield Button("Discard and quit (d)", id=DISCARD, variant="error")
                yield Button("Cancel (esc)", id="cancel")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id or "")

    def action_answer(self, choice: str) -> None:
        self.dismiss(choice or None)
