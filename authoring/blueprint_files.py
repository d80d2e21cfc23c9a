"""Reading and writing one blueprint YAML file, with one precise line per problem."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from authoring.atomic import write_atomically  # noqa: F401 - part of this module's interface
from authoring.blueprint import Blueprint, plain_problems
from authoring.errors import V3astError


class UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """Safe loading (the C parser where available) that refuses a key given twice in one mapping,
    instead of silently keeping the last value."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} appears twice (first on line {seen[key] + 1})", key_node.start_mark
                )
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


SafeLoader = UniqueKeyLoader
SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class BlueprintFileError(V3astError, ValueError):
    """Every problem of one file, each as `file: field: problem`."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def problems_of(path: Path, error: ValidationError) -> list[str]:
    return [f"{path}: {line.replace('(blueprint):', '(file):', 1)}" for line in plain_problems(error)]


def parse_blueprint(path: Path, text: str) -> Blueprint:
    try:
        data = yaml.load(text, Loader=SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "(file)"
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        context, started = getattr(error, "context", None), getattr(error, "context_mark", None)
        if context and started and mark and started.line != mark.line:
            problem += f" ({context} started on line {started.line + 1})"
        raise BlueprintFileError([f"{path}: {where}: invalid YAML: {problem}"]) from None
    if not isinstance(data, dict):
        raise BlueprintFileError([f"{path}: (file): expected a mapping of fields, got {type(data).__name__}"])
    problems = []
    try:
        blueprint = Blueprint.model_validate(data)
    except ValidationError as error:
        problems = problems_of(path, error)
    problems += placement_problems(path, data)
    if problems:
        raise BlueprintFileError(problems)
    return blueprint


def placement_problems(path: Path, data: dict) -> list[str]:
    """A file's id must be its name and its cell its folder (checked even when other fields are invalid)."""
    problems = []
    blueprint_id, cell = data.get("id"), data.get("taxonomy_id")
    if isinstance(blueprint_id, str) and blueprint_id != path.stem:
        problems.append(f"{path}: id: {blueprint_id!r} does not match the file name {path.stem!r}")
    if isinstance(cell, str) and cell != path.parent.name:
        problems.append(f"{path}: taxonomy_id: {cell!r} does not match the folder {path.parent.name!r}")
    return problems


def read_blueprint(path: Path) -> Blueprint:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BlueprintFileError([f"{path}: (file): cannot read: {error}"]) from None
    return parse_blueprint(path, text)


def dump_blueprint(blueprint: Blueprint) -> str:
    data = blueprint.model_dump(mode="json", exclude_none=True)
    return yaml.dump(data, Dumper=BlockDumper, sort_keys=False, allow_unicode=True, width=100)


class BlockDumper(yaml.SafeDumper):
    """Multi-line strings as `|` blocks, so diffs of blueprint text read like prose."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


BlockDumper.add_representer(str, _str_representer)
