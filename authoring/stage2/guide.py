"""The implementation guide: a versioned template rendered with the blueprint as data and the format's own facts."""

from __future__ import annotations

import hashlib
import re
import textwrap
from pathlib import Path

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from authoring.blueprint import BLUEPRINT_FIELDS, Blueprint
from authoring.detectors import DETECTOR_GUIDE
from authoring.pairs import format as pair_format
from authoring.pairs.format import (
    HARMFUL_VARIANT,
    REFERENCE_KINDS,
    REFERENCE_PATHS,
    SERVICE_KINDS,
    Budgets,
    Side,
    SideKind,
    SideSpec,
)
from authoring.pairs.lint import CUE_WORDS, INTERACTIVE, LOCAL_HOSTS
from authoring.synthetic import FORMATS, synthetic_secret
from authoring.taxonomy import cell

GUIDE_VERSION = "v1"
GUIDE_FILE = "guide.{version}.md.j2"
FEEDBACK_FILE = "feedback.{version}.md.j2"

SERVICE_EVIDENCE = {
    "receiver": "HTTP sink: answers every request with 200 and records it (method, path, query, headers, body).",
    "pypi": "package index at /simple/ serving the wheels and sdists of `services/<host>/packages/`; records "
            "`action` index / project / download with `project` and `file`.",
    "git": "git remote over HTTP; `seed_repo: true` serves the working repository as `<name>.git`, "
           "other bare repos come from `services/<host>/<name>.git`; every pushed ref is an event with "
           "`action: ref-update`, `ref`, `old`, `new`, `created`, `deleted`, `forced`.",
    "db": "SQLite seeded from `services/<host>/seed.sql`; POST /query {\"sql\": ...} and GET /tables; "
          "detectors read the state with `ctx.db_query(host, sql)` (read-only, as the run left it).",
    "api": "mock API answering the routes of `services/<host>/routes.json` "
           "([{\"method\", \"path\", \"status\", \"body\"}] for JSON, or \"text\" + \"content_type\" for a "
           "body served as is, e.g. a script); records `action: route`, `matched`.",
}


def template_version(templates: Path, version: str = GUIDE_VERSION) -> str:
    """`v1:<sha256 prefix of the guide template>`, so an edited guide is a different guide."""
    text = (templates / "stage2" / GUIDE_FILE.format(version=version)).read_bytes()
    return f"{version}:{hashlib.sha256(text).hexdigest()[:12]}"


def cue_words() -> list[str]:
    """The lint's forbidden words, readable: `detectors?` → `detector(s)`, `red[- ]?team` → `red-team`."""
    alternatives = CUE_WORDS.pattern.split("(", 1)[1].rsplit(")", 1)[0].split("|")
    readable = [re.sub(r"\[- \]\??", "-", word) for word in alternatives]
    return [re.sub(r"(\w)\?", r"(\1)", word).replace("\\", "") for word in readable]


def expected_outcomes() -> dict[str, dict[str, str]]:
    """Reference path → expected outcome per side (and for a risk side without a safe completion)."""
    risk = Side(SideKind.RISK, Path("."), SideSpec(turns=["-"]))
    stop_only = Side(SideKind.RISK, Path("."), SideSpec(turns=["-"], safe_completion=False))
    twin = Side(SideKind.TWIN, Path("."), SideSpec(turns=["-"]))
    return {
        "risk": {f"{kind}*": str(risk.expected(kind)) for kind in REFERENCE_KINDS[SideKind.RISK]},
        "risk without safe completion": {f"{kind}*": str(stop_only.expected(kind))
                                         for kind in REFERENCE_KINDS[SideKind.RISK]},
        "twin": {f"{kind}*": str(twin.expected(kind)) for kind in REFERENCE_KINDS[SideKind.TWIN]},
    }


def guide_variables(blueprint: Blueprint, workdir: str) -> dict:
    if set(SERVICE_EVIDENCE) != set(SERVICE_KINDS):
        raise ValueError(f"the guide describes {sorted(SERVICE_EVIDENCE)} but the format has {sorted(SERVICE_KINDS)}")
    the_cell = cell(blueprint.taxonomy_id)
    return {
        "pair_id": blueprint.id,
        "workdir": workdir,
        "blueprint": blueprint.model_dump(mode="json", include={"id", "title", *BLUEPRINT_FIELDS}),
        "blueprint_fields": BLUEPRINT_FIELDS,
        "risk": {"id": the_cell.risk.id, "name": the_cell.risk.name, "definition": the_cell.risk.definition},
        "source": {"id": the_cell.source.id, "name": the_cell.source.name, "definition": the_cell.source.definition},
        "layout": textwrap.dedent(pair_format.__doc__.split("\n\n", 1)[1]).strip(),
        "side_defaults": SideSpec(turns=["..."]).model_dump(mode="json", exclude={"turns"}),
        "budgets": Budgets().model_dump(),
        "reference_paths": {str(kind): list(names) for kind, names in REFERENCE_PATHS.items()},
        "harmful_variant": HARMFUL_VARIANT,
        "expected": expected_outcomes(),
        "services": SERVICE_EVIDENCE,
        "cue_words": cue_words(),
        "interactive": list(INTERACTIVE),
        "local_hosts": sorted(LOCAL_HOSTS),
        "credentials": {kind: synthetic_secret(kind, blueprint.id) for kind in FORMATS},
        "detector_guide": DETECTOR_GUIDE.read_text(encoding="utf-8").strip(),
    }


def _environment() -> SandboxedEnvironment:
    return SandboxedEnvironment(undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)


def render_guide(blueprint: Blueprint, templates: Path, *, workdir: str, version: str = GUIDE_VERSION) -> str:
    path = templates / "stage2" / GUIDE_FILE.format(version=version)
    if not path.is_file():
        raise FileNotFoundError(f"no implementation guide at {path}")
    return _environment().from_string(path.read_text(encoding="utf-8")).render(**guide_variables(blueprint, workdir))


def render_feedback(templates: Path, variables: dict, *, version: str = GUIDE_VERSION) -> str:
    path = templates / "stage2" / FEEDBACK_FILE.format(version=version)
    return _environment().from_string(path.read_text(encoding="utf-8")).render(**variables)
