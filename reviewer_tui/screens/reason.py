"""Ask why: the reason recorded with a decision; required when it goes against the rubric or another person."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static


class ReasonScreen(ModalScreen[str | None]):
    """Dismisses with the reason (maybe empty when optional), or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", tooltip="Make no decision")]

    def __init__(self, question: str, *, required: bool, why_required: str = "", reason: str = ""):
        super().__init__()
        self.reason = reason
        """Text to start from (a reason kept from a decision that could not be written)."""
        self.question = question
        self.required = required
        self.why_required = why_required

    def compose(self) -> ComposeResult:
        with Vertical(id="reason-dialog"):
            yield Label(self.question, id="reason-question")
            hint = f"A reason is required: {self.why_required}" if self.required else "Reason (optional)"
            yield Static(hint, id="reason-hint")
            yield Input(self.reason, placeholder="why? — Enter to record, Esc to cancel", id="reason")
            yield Static("", id="reason-error")

    @on(Input.Submitted, "#reason")
    def _submit(self, event: Input.Submitted) -> None:
        reason = event.value.strip()
        if self.required and not reason:
            self.query_one("#reason-error", Static).update("No decision recorded: this one needs a reason.")
            return
        self.dismiss(reason)

    def action_cancel(self) -> None:
        self.dismiss(None)
