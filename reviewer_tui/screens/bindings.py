"""Keys shared by the queue and the detail screen."""

from __future__ import annotations

from textual.binding import Binding

HELP_BINDING = Binding("question_mark", "app.help", "Help", tooltip="Every key, on every screen")
"""First of a screen's keys, so a narrow footer (80 columns) still shows it."""
DECISION_BINDINGS = [
    Binding("a", "decide('accepted')", "Accept",
            tooltip="Accept (asks a reason; required against a drop or another person's decision)"),
    Binding("r", "decide('rejected')", "Reject",
            tooltip="Reject (asks a reason; required against a keep or another person's decision)"),
    Binding("b", "decide('needs_review')", "Back to review",
            tooltip="Send back to human review (asks a reason; required against another person's decision)"),
]

