"""Render a pair's scaffold from Jinja2 templates; blueprint text is data, never template code."""

from __future__ import annotations

from pathlib import Path

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from authoring.blueprint import Blueprint, Status
from authoring.errors import BadInput, MissingFile
from authoring.version import toolkit_version

SCAFFOLD = "pair"
COMMON = "common"
RENDERABLE = {Status.ACCEPTED, Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED}


def template_files(templates: Path, risk: str) -> dict[str, Path]:
    """Relative output path → template; a risk category's folder overrides the common scaffold."""
    chosen: dict[str, Path] = {}
    for layer in (COMMON, risk):
        root = templates / SCAFFOLD / layer
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            relative = path.relative_to(root).as_posix()
            chosen[relative.removesuffix(".j2")] = path
    if not chosen:
        raise MissingFile(f"no scaffold templates under {templates / SCAFFOLD / COMMON}")
    return chosen


def safe_target(folder: Path, relative: str) -> Path:
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder.resolve()):
        raise BadInput(f"template output {relative!r} would escape the pair folder {folder}")
    return target


def render_scaffold(blueprint: Blueprint, templates: Path, output_root: Path, *, overwrite: bool = False) -> Path:
    if blueprint.status not in RENDERABLE:
        raise BadInput(f"blueprint {blueprint.id} is {blueprint.status}; only accepted blueprints are rendered")
    folder = output_root / blueprint.id
    if folder.exists() and not overwrite:
        raise FileExistsError(f"{folder} already exists (use --overwrite to render again)")
    environment = SandboxedEnvironment(undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)
    variables = {
        "pair_id": blueprint.id,
        "blueprint": blueprint.model_dump(mode="json"),
        "cell": blueprint.taxonomy_id,
        "risk": blueprint.category,
        "source": blueprint.source,
        "toolkit_version": toolkit_version(),
    }
    for relative, template_path in template_files(templates, blueprint.category).items():
        target = safe_target(folder, relative)
        template = environment.from_string(template_path.read_text(encoding="utf-8"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(template.render(**variables), encoding="utf-8")
        if template_path.suffix == ".sh" or relative.endswith(".sh"):
            target.chmod(0o755)
    return folder
