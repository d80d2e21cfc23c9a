"""What Stage I reads: where things are, the source references, the rubric and the prompt templates."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from jinja2 import FileSystemLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from pydantic import BaseModel, ValidationError

from authoring.errors import BadInput, NotFound
from authoring.fields import Strict
from authoring.project import Project

TOOLKIT_ROOT = Path(__file__).resolve().parents[2]


class Workspace(BaseModel):
    """Where Stage I reads its inputs and writes its records."""

    blueprints: Path
    """The blueprint store folder (committed to git)."""
    sources: Path
    """Folder of source-reference YAML files."""
    rubric: Path
    """The rubric file."""
    templates: Path
    """Folder of the Stage I prompt templates."""
    runs: Path
    """Run records: usage ledger, failed candidates (not versioned)."""

    @classmethod
    def of(cls, project: Project) -> Workspace:
        """The project's own files, falling back to the toolkit's for templates, sources and rubric."""
        return cls(
            blueprints=project.blueprints,
            sources=_first_existing(project.sources, TOOLKIT_ROOT / "blueprints" / "sources"),
            rubric=_first_existing(project.blueprints / "rubric.yaml", TOOLKIT_ROOT / "blueprints" / "rubric.yaml"),
            templates=_first_existing(project.templates / "stage1", TOOLKIT_ROOT / "templates" / "stage1"),
            runs=project.runs / "stage1",
        )

    @property
    def ledger(self) -> Path:
        return self.runs / "usage.jsonl"

    @property
    def failed(self) -> Path:
        return self.runs / "failed"


def _first_existing(preferred: Path, fallback: Path) -> Path:
    return preferred if preferred.exists() else fallback


class SourceReference(Strict):
    """A kind of real incident a blueprint is grounded in."""

    id: str
    kind: Literal["harness_issue", "auto_mode_policy", "incident"]
    title: str
    excerpt: str
    """A short, generic description of what happened or what the rule says."""
    origin: str
    """Where such material comes from, e.g. a harness's public issue tracker."""
    risks: list[str] = []
    """Risk categories it most often grounds."""


def load_sources(folder: Path) -> dict[str, SourceReference]:
    sources: dict[str, SourceReference] = {}
    for path in sorted(folder.glob("*.yaml")):
        try:
            source = SourceReference.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        except (ValidationError, yaml.YAMLError) as error:
            raise BadInput(f"{path}: invalid source reference: {' '.join(str(error).split())[:200]}") from None
        if source.id != path.stem:
            raise BadInput(f"{path}: id {source.id!r} does not match the file name")
        sources[source.id] = source
    if not sources:
        raise NotFound(f"no source references in {folder}")
    return sources


class Dimension(Strict):
    id: str
    name: str
    guidance: str


class Rubric(Strict):
    """The review rubric: a version and its dimensions."""

    version: str
    dimensions: list[Dimension]

    @property
    def dimension_ids(self) -> list[str]:
        return [d.id for d in self.dimensions]


def load_rubric(path: Path) -> Rubric:
    try:
        return Rubric.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (ValidationError, yaml.YAMLError, OSError) as error:
        raise BadInput(f"{path}: invalid rubric: {' '.join(str(error).split())[:200]}") from None


class Prompt(BaseModel):
    version: str
    """The template's file stem, e.g. `propose.v1`."""
    system: str
    user: str


def render_prompt(templates: Path, name: str, **variables: object) -> Prompt:
    """Render the `system` and `user` blocks of `<name>.j2`; variables are data, never template code."""
    environment = SandboxedEnvironment(loader=FileSystemLoader(templates), undefined=StrictUndefined,
                                       keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    template = environment.get_template(f"{name}.j2")
    context = template.new_context(dict(variables))
    blocks = {block: "".join(template.blocks[block](context)).strip() for block in ("system", "user")}
    return Prompt(version=name, **blocks)
