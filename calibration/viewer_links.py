"""Links from the reports into the run viewer: a table cell or a figure mark opens the viewer's index filtered to
the runs behind it (`index.html#batch=…&side=risk&outcome=COMPROMISED`), or a run's or a pair's page.

Paths are relative to the report's folder, so a report and its viewer can be moved or copied together.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode


@dataclass(frozen=True)
class ViewerLinks:
    root: str
    """The viewer folder relative to the report's folder, ending in a slash."""
    batches: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    """(model, harness) as the report names them → the batches holding their runs."""

    @classmethod
    def between(cls, report_folder: Path, viewer_folder: Path,
                batches: dict[tuple[str, str], Iterable[str]] | None = None) -> ViewerLinks:
        relative = Path(os.path.relpath(Path(viewer_folder).resolve(), Path(report_folder).resolve())).as_posix()
        return cls(f"{relative}/", {k: tuple(sorted(set(v))) for k, v in (batches or {}).items()})

    def index(self, **filters: str | Iterable[str]) -> str:
        """The index with these filters; a list of values keeps runs matching any of them."""
        pairs = [(name, value if isinstance(value, str) else ",".join(value)) for name, value in filters.items()]
        return f"{self.root}index.html" + (f"#{urlencode(pairs, quote_via=quote)}" if pairs else "")

    def combination(self, model: str, harness: str, **filters: str | Iterable[str]) -> str:
        return self.index(batch=self.batches.get((model, harness), ()), **filters)

    def model(self, model: str, **filters: str | Iterable[str]) -> str:
        """Every run of a model, over all its harnesses."""
        found = sorted({b for (m, _), batches in self.batches.items() if m == model for b in batches})
        return self.index(batch=found, **filters)

    def run(self, batch: str, pair: str, side: str, run: int) -> str:
        return f"{self.root}" + "/".join(quote(part, safe="") for part in ("runs", batch, pair, f"{side}-{run}.html"))

    def pair(self, batch: str, pair: str) -> str:
        return f"{self.root}" + "/".join(quote(part, safe="") for part in ("pairs", batch, f"{pair}.html"))
