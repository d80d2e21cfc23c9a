"""Field types shared by the blueprint and the pair format: strict models, ids, cells, non-blank text."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from authoring.taxonomy import CELLS

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{2,79}$")


class Strict(BaseModel):
    """No unknown keys, and assignments are validated like construction."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _safe_id(value: str) -> str:
    if not ID_PATTERN.fullmatch(value) or ".." in value:
        raise ValueError("must be 3-80 chars of a-z, 0-9, '.', '_', '-', start with a letter or digit, no '..'")
    return value


def _known_cell(value: str) -> str:
    if value not in CELLS:
        raise ValueError(f"unknown cell {value!r} (expected e.g. R5-S2: R1..R9 and S1/S2)")
    return value


NonEmpty = Annotated[str, Field(min_length=1), AfterValidator(_not_blank)]
SafeId = Annotated[str, AfterValidator(_safe_id)]
"""A blueprint's or a pair's id: safe as a file or folder name."""
CellId = Annotated[str, AfterValidator(_known_cell)]
"""A taxonomy cell such as `R5-S2`, exactly as `authoring.taxonomy.CELLS` spells it."""
