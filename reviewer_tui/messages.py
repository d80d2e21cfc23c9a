"""Messages the App sends to every open screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class BlueprintsChanged(Message):
    """Blueprints were written or reloaded; `blueprint_id` is None when the whole store was reloaded."""

    blueprint_id: str | None = None


@dataclass
class RowsArrived(Message):
    """More rows of the store are loaded (or all of them are); only the queue needs to redraw."""
