"""The queue: a table that renders only the rows on screen, so 5,000 blueprints sort and filter at once."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from reviewer_tui.catalog import Row

STATUS_SHORT = {
    "proposed": "proposed", "kept": "kept", "needs_review": "review", "dropped": "dropped",
    "accepted": "accepted", "rejected": "rejected", "implemented": "implem.", "calibrated": "calibr.",
    "admitted": "admitted",
}


WIDE = 100
"""From this width on the date column is shown."""


DUPLICATE_MARK = "≈"
STALE_MARK = "✎"


def marks(row: Row) -> str:
    """≈ a near-duplicate of another blueprint, ✎ edited since its rubric review."""
    return (DUPLICATE_MARK if row.duplicate_of else " ") + (STALE_MARK if row.stale else " ")


def columns(extra: str | None, id_width: int, width: int) -> list[tuple[str, int]]:
    fixed = [("id", id_width), ("", 2), ("cell", 5), ("status", 8), ("total", 5), ("band", 7)]
    dated = [("date", 10)] if width >= WIDE else []
    return fixed + dated + ([(extra[:6], 6)] if extra else []) + [("title", 0)]


def cells_of(row: Row, extra: str | None, width: int) -> list[str]:
    values = [row.id, marks(row), row.cell, STATUS_SHORT.get(row.status, row.status),
              "–" if row.total is None else f"{row.total:>2}", STATUS_SHORT.get(row.band or "", "–")]
    if width >= WIDE:
        values.append(row.date[:10])
    if extra:
        score = row.scores.get(extra)
        values.append("–" if score is None else str(score))
    return values + [row.title]


def layout(values: list[str], widths: list[tuple[str, int]], width: int) -> str:
    used = sum(w + 1 for _, w in widths if w)
    parts = []
    for value, (_, w) in zip(values, widths, strict=True):
        w = w or max(width - used, 5)
        parts.append(value[: w - 1] + "…" if len(value) > w else value.ljust(w))
    return " ".join(parts)[:width].ljust(width)


class QueueTable(ScrollView, can_focus=True):
    """Rows of the queue with a cursor; Enter opens the highlighted blueprint."""

    DEFAULT_CSS = """
    QueueTable { height: 1fr; }
    QueueTable > .queue-table--cursor { background: $accent 40%; text-style: bold; }
    QueueTable > .queue-table--review { color: $warning; }
    QueueTable > .queue-table--decided { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"queue-table--cursor", "queue-table--review", "queue-table--decided"}
    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "open", "Open", tooltip="Open the highlighted blueprint"),
    ]

    cursor = reactive(0)

    @dataclass
    class Opened(Message):
        row: Row

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id)
        self.rows: list[Row] = []
        self.extra: str | None = None
        self.id_width = 8

    @property
    def current(self) -> Row | None:
        return self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None

    def show(self, rows: list[Row], extra: str | None = None, keep: str | None = None) -> None:
        """Replace the rows; keep the cursor on blueprint `keep` if it is still shown."""
        self.rows, self.extra = rows, extra
        self.id_width = max((len(r.id) for r in rows), default=8)  # never cut: two ids must not look alike
        self.virtual_size = Size(self.size.width, len(rows))
        ids = [r.id for r in rows] if keep else []
        self.cursor = ids.index(keep) if keep in ids else 0
        self.scroll_to_cursor()
        self.refresh()

    def header(self) -> str:
        width = self.size.width or 80
        widths = columns(self.extra, self.id_width, width)
        return layout([name for name, _ in widths], widths, width)

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.size.width
        if index >= len(self.rows):
            return Strip([Segment(" " * width, self.rich_style)])
        row = self.rows[index]
        text = layout(cells_of(row, self.extra, width), columns(self.extra, self.id_width, width), width)
        style = self.rich_style + self._row_style(row)
        if index == self.cursor:
            style += self.get_component_rich_style("queue-table--cursor")
        return Strip([Segment(text, style)], width)

    def _row_style(self, row: Row) -> Style:
        if row.status == "needs_review":
            return self.get_component_rich_style("queue-table--review")
        if row.status in ("accepted", "rejected"):
            return self.get_component_rich_style("queue-table--decided")
        return Style()

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh()

    def scroll_to_cursor(self) -> None:
        top, height = self.scroll_offset.y, max(self.size.height, 1)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False)

    def action_move(self, step: int) -> None:
        if self.rows:
            self.cursor = min(max(self.cursor + step, 0), len(self.rows) - 1)
            self.scroll_to_cursor()

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(self.size.height - 1, 1))

    def action_jump(self, where: int) -> None:
        self.action_move(len(self.rows) if where < 0 else -len(self.rows))

    def action_open(self) -> None:
        if self.current:
            self.post_message(self.Opened(self.current))

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < len(self.rows):
            if index == self.cursor and event.chain > 1:
                self.action_open()
            self.cursor = index

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.rows))
