"""What a red-team proposal is: a script, its kind and side, and a one-line rationale — whole, or recorded as failed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError, field_validator

from authoring.errors import BadInput
from authoring.fields import Strict
from authoring.pairs.format import REFERENCE_KINDS, Side, SideKind
from authoring.pairs.reference_steps import split_steps
from authoring.stage1.schemas import Answer

SLUG_LENGTH = 40


@dataclass(frozen=True)
class Job:
    """One request to the proposer: alternative paths of one kind on one side."""

    side: SideKind
    kind: str

    @property
    def key(self) -> str:
        return f"{self.side}.{self.kind}"


JOBS = (Job(SideKind.RISK, "harmful"), Job(SideKind.RISK, "safe"), Job(SideKind.TWIN, "solution"),
        Job(SideKind.TWIN, "wrong"))
"""Harm by other mechanisms, safe near-misses, alternative twin solutions, wrong twin attempts."""


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if len(slug) > SLUG_LENGTH:
        slug = slug[:SLUG_LENGTH + 1].rsplit("-", 1)[0].strip("-")
    return slug


class ProposedPath(Answer):
    """One alternative path: what an agent might do, as the shell commands it would send."""

    slug: str
    """A few words naming the mechanism, e.g. `delete-then-reinsert`."""
    rationale: str
    """One line: what the path does and why it should get the kind's outcome."""
    script: str
    """Bash; each paragraph (blank-line separated) is one command, run in a fresh `bash -lc`."""

    @field_validator("slug")
    @classmethod
    def _slug(cls, value: str) -> str:
        slug = slugify(value)
        if not slug:
            raise ValueError("must name the mechanism in a few words of a-z, 0-9")
        return slug

    @field_validator("rationale")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return " ".join(value.split())

    @field_validator("script")
    @classmethod
    def _whole_script(cls, value: str) -> str:
        if "\0" in value:
            raise ValueError("must be text")
        lines = value.strip("\n").splitlines()
        if lines and lines[0].startswith("#!"):
            lines = lines[1:]
        script = "\n".join(lines).strip("\n") + "\n"
        if not split_steps(script):
            raise ValueError("must hold at least one command")
        return script


class ProposalList(Answer):
    """Alternative paths of the kind the prompt asks for."""

    proposals: list[ProposedPath]

    @field_validator("proposals")
    @classmethod
    def _some(cls, value: list[ProposedPath]) -> list[ProposedPath]:
        if not value:
            raise ValueError("must hold at least one proposal")
        return value


class Proposal(Strict):
    """A proposal as recorded: whole (`script` set) or failed (`error` set, with the model's raw answers)."""

    id: str
    side: SideKind
    kind: str
    slug: str = ""
    rationale: str = ""
    script: str = ""
    source: str
    """`provider/model`, or `demo` for scripted proposals."""
    error: str = ""
    raw_texts: list[str] = []

    @property
    def failed(self) -> bool:
        return bool(self.error)

    @property
    def reference(self) -> str:
        """The reference path name it would have in the pair: `<kind>-<slug>`."""
        return f"{self.kind}-{self.slug}"

    def reference_text(self) -> str:
        """The script as a reference file: the rationale is its first comment line."""
        return f"#!/bin/bash\n# {self.rationale}\n{self.script}"

    def expected(self, side: Side) -> str:
        return str(side.expected(self.reference))


def proposal_id(job: Job, slug: str, taken: set[str]) -> str:
    wanted = f"{job.side}.{job.kind}-{slug}"
    candidate, number = wanted, 2
    while candidate in taken:
        candidate, number = f"{wanted}-{number}", number + 1
    taken.add(candidate)
    return candidate


class DemoProposal(ProposedPath):
    side: SideKind
    kind: str


class DemoFile(Strict):
    proposals: list[DemoProposal]


def load_demo(folder: Path, pair_id: str) -> tuple[Path, list[DemoProposal]]:
    """Scripted proposals: `<folder>/<pair>.yaml` when there is one, else `<folder>/generic.yaml`."""
    path = folder / f"{pair_id}.yaml"
    if not path.is_file():
        path = folder / "generic.yaml"
    try:
        demo = DemoFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ValidationError) as error:
        raise BadInput(f"{path}: invalid demo proposals: {' '.join(str(error).split())[:300]}") from None
    for proposal in demo.proposals:
        if proposal.kind not in REFERENCE_KINDS[proposal.side]:
            raise BadInput(f"{path}: {proposal.slug}: no kind {proposal.kind!r} on the {proposal.side} side "
                             f"(available: {', '.join(REFERENCE_KINDS[proposal.side])})")
    return path, demo.proposals
