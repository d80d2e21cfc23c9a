"""A red-team session's records under `runs/redteam/<pair>/<timestamp>/`: JSON lines, each file written atomically.

    session.json        pair, content hash, prompt version, proposer, when it started and finished
    proposals.jsonl     every proposal (whole or failed), as it arrives
    runs.jsonl          every proposal's run: expected, observed, the detectors' evidence, the commands' output
    settlements.jsonl   a person's decision on a proposal: keep (as a reference path) or expectation-wrong
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path

from authoring.atomic import write_atomically
from authoring.errors import BadInput
from authoring.fields import Strict
from authoring.redteam.proposals import Proposal


class SessionInfo(Strict):
    pair: str
    content_hash: str
    prompt_version: str
    proposer: str
    per_kind: int
    started_at: str
    finished_at: str = ""


class RunRecord(Strict):
    proposal: str
    expected: str
    observed: str = ""
    """The verdict, or empty when the run itself failed (`error`)."""
    evidence: str = ""
    error: str = ""
    seconds: float = 0.0
    steps: list[dict] = []
    """Each command with its exit code and the tail of its output."""

    @property
    def agrees(self) -> bool:
        return not self.error and self.observed == self.expected


class Settlement(Strict):
    proposal: str
    decision: str
    """`keep` (written into the pair as a reference path) or `expectation-wrong`."""
    reason: str = ""
    reference: str = ""
    """The reference file written, relative to the pair (keep)."""
    actor: str
    at: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Session:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._lock = threading.Lock()

    @property
    def id(self) -> str:
        return self.folder.name

    @property
    def info(self) -> SessionInfo:
        return SessionInfo.model_validate_json((self.folder / "session.json").read_text(encoding="utf-8"))

    def write_info(self, info: SessionInfo) -> None:
        write_atomically(self.folder / "session.json", info.model_dump_json(indent=2) + "\n")

    def proposals(self) -> list[Proposal]:
        return [Proposal.model_validate(line) for line in self._lines("proposals.jsonl")]

    def runs(self) -> dict[str, RunRecord]:
        """The latest run of each proposal (a run that failed to run may be followed by a complete one)."""
        return {record.proposal: record for record in map(RunRecord.model_validate, self._lines("runs.jsonl"))}

    def settlements(self) -> dict[str, Settlement]:
        return {s.proposal: s for s in map(Settlement.model_validate, self._lines("settlements.jsonl"))}

    def add_proposals(self, proposals: list[Proposal]) -> None:
        self._append("proposals.jsonl", [p.model_dump(mode="json") for p in proposals])

    def add_run(self, record: RunRecord) -> None:
        self._append("runs.jsonl", [record.model_dump(mode="json")])

    def add_settlement(self, settlement: Settlement) -> None:
        self._append("settlements.jsonl", [settlement.model_dump(mode="json")])

    def finish(self) -> None:
        info = self.info
        info.finished_at = now()
        self.write_info(info)

    def _lines(self, name: str) -> list[dict]:
        path = self.folder / name
        if not path.is_file():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def _append(self, name: str, items: list[dict]) -> None:
        """The whole file rewritten with the new lines: a kill leaves the old lines or all of the new ones."""
        with self._lock:
            path = self.folder / name
            old = path.read_text(encoding="utf-8") if path.is_file() else ""
            write_atomically(path, old + "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))


def sessions(root: Path, pair_id: str) -> list[Session]:
    """The pair's sessions, oldest first."""
    folder = Path(root) / pair_id
    return [Session(p) for p in sorted(folder.iterdir()) if (p / "session.json").is_file()] if folder.is_dir() else []


def new_session(root: Path, info: SessionInfo) -> Session:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    session = Session(Path(root) / info.pair / stamp)
    session.folder.mkdir(parents=True, exist_ok=False)
    session.write_info(info)
    return session


def resumable(root: Path, pair_id: str, content_hash: str) -> Session | None:
    """The latest session when it was interrupted on the pair as it is now."""
    found = sessions(root, pair_id)
    if found and not found[-1].info.finished_at and found[-1].info.content_hash == content_hash:
        return found[-1]
    return None


def find_proposal(root: Path, pair_id: str, proposal_id: str) -> tuple[Session, Proposal]:
    """The newest session holding the proposal; an unknown id lists the latest session's proposals."""
    found = sessions(root, pair_id)
    for session in reversed(found):
        for proposal in session.proposals():
            if proposal.id == proposal_id:
                return session, proposal
    if not found:
        raise BadInput(f"no red-team session for {pair_id} under {root} (run `v3ast redteam {pair_id}` first)")
    available = ", ".join(p.id for p in found[-1].proposals()) or "none"
    raise BadInput(f"no proposal {proposal_id!r} in the red-team sessions of {pair_id} "
                     f"(latest, {found[-1].id}: {available})")
