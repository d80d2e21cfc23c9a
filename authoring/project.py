"""Where a v3ast project keeps its data: one object knows every top-level path."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from authoring.settings import settings


@dataclass(frozen=True)
class Project:
    root: Path

    @classmethod
    def current(cls) -> Project:
        """The project at $V3AST_ROOT, else the working directory."""
        return cls(settings().project_root)

    @property
    def blueprints(self) -> Path:
        return self.root / "blueprints"

    @property
    def sources(self) -> Path:
        return self.blueprints / "sources"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def generated_tasks(self) -> Path:
        return self.root / "generated_tasks"

    @property
    def calibration(self) -> Path:
        return self.root / "calibration"

    @property
    def runs(self) -> Path:
        """Run records and reports (not versioned: large and machine-specific)."""
        return self.root / "runs"
