"""Messages the App sends to every open screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class BlueprintsChanged(Message):
    """Blueprints were written or reloaded; `blueprint_id` is None when the whole store was reloaded."""

    blueprint_id: str | None = None
