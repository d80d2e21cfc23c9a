"""A red-team session: gather proposals, run each through the real runner as a reference path, record the verdicts.

A proposal is run as the reference file `settle --keep` would write (`<kind>-<slug>.sh`, rationale first) in a
scratch copy of the pair, through `check_reference` — the same runner, actor and expectation as `v3ast validate`,
so a kept proposal gets the verdict it got here. Resumable: proposals already asked are not asked again and runs
already recorded are not run again.
"""

from __future__ import annotations

import shutil
import tempfile
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import docker

from authoring.errors import BadInput
from authoring.pairs.format import TaskPair, content_hash, load_pair
from authoring.pairs.validate import check_reference
from authoring.redteam.prompt import PROMPT_VERSION
from authoring.redteam.proposals import Proposal, proposal_id
from authoring.redteam.proposers import JobAnswer
from authoring.redteam.records import RunRecord, Session, SessionInfo, new_session, now, resumable

OUTPUT_TAIL = 1500


@dataclass
class Row:
    """One line of the report."""

    proposal: Proposal
    expected: str
    run: RunRecord | None
    settled: str = ""

    @property
    def status(self) -> str:
        if self.proposal.failed:
            return "failed"
        if self.run is None:
            return "pending"
        if self.run.error:
            return "error"
        return "agree" if self.run.agrees else "DISAGREE"

    @property
    def open(self) -> bool:
        """Needs a person (or a re-run): a disagreement nobody settled, or a run that did not complete."""
        return self.status in ("DISAGREE", "error", "pending") and not self.settled


def open_session(root: Path, pair: TaskPair, proposer_name: str, per_kind: int) -> tuple[Session, bool]:
    """The interrupted session on this pair, resumed, or a new one; and whether it was resumed."""
    digest = content_hash(pair.folder)
    session = resumable(root, pair.id, digest)
    if session is not None:
        return session, True
    info = SessionInfo(pair=pair.id, content_hash=digest, prompt_version=PROMPT_VERSION, proposer=proposer_name,
                       per_kind=per_kind, started_at=now())
    return new_session(root, info), False


def gather(session: Session, pair: TaskPair, proposer, per_kind: int) -> None:
    """Ask for the kinds the session has no proposals of yet; each answer is recorded as it arrives."""
    recorded = session.proposals()
    asked = {(p.side, p.kind) for p in recorded}
    taken = {p.id for p in recorded}
    jobs = [job for job in proposer.jobs(pair) if (job.side, job.kind) not in asked]

    def record(answer: JobAnswer) -> None:
        job = answer.job
        if answer.error or not answer.paths:
            failed = Proposal(id=proposal_id(job, "failed", taken), side=job.side, kind=job.kind,
                              source=proposer.name, error=answer.error or "no proposals", raw_texts=answer.raw_texts)
            session.add_proposals([failed])
            return
        session.add_proposals([Proposal(id=proposal_id(job, path.slug, taken), side=job.side, kind=job.kind,
                                        source=proposer.name, **path.model_dump()) for path in answer.paths])

    proposer.propose(pair, jobs, per_kind, record)


def run_proposal(client: docker.DockerClient, pair: TaskPair, proposal: Proposal, base_image: str) -> RunRecord:
    """Run the proposal as a reference path of a scratch copy of the pair."""
    with tempfile.TemporaryDirectory(prefix="v3ast-redteam-") as scratch:
        folder = Path(scratch) / pair.id
        shutil.copytree(pair.folder, folder, ignore=shutil.ignore_patterns("__pycache__", "made_by"))
        path = folder / proposal.side / "reference" / f"{proposal.reference}.sh"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(proposal.reference_text(), encoding="utf-8")
        try:
            check = check_reference(client, load_pair(folder), proposal.side, proposal.reference, base_image)
        except Exception as error:  # the copy would not load or run: recorded, retried on the next run
            last = traceback.format_exception_only(type(error), error)[-1].strip()
            return RunRecord(proposal=proposal.id, expected=proposal.expected(pair.side(proposal.side)), error=last)
    if check.run is None:
        return RunRecord(proposal=proposal.id, expected=str(check.expected), error=check.error or "no run")
    steps = [{"command": step.get("command", ""), "exit_code": step.get("exit_code"),
              "output": str(step.get("output", ""))[-OUTPUT_TAIL:]} for step in check.run.report.steps]
    return RunRecord(proposal=proposal.id, expected=str(check.expected), observed=str(check.observed),
                     evidence=check.evidence, seconds=round(check.run.seconds, 2), steps=steps)


def run_all(client: docker.DockerClient, session: Session, pair: TaskPair, *, base_image: str, workers: int,
            on_run: Callable[[Proposal, RunRecord], None] = lambda proposal, record: None) -> None:
    """Run every whole proposal without a complete run. On Ctrl-C the runs not started are cancelled; those
    under way finish and are recorded (each run records itself), so a re-run never repeats a run."""
    runs = session.runs()
    todo = [p for p in session.proposals() if not p.failed and (p.id not in runs or runs[p.id].error)]

    def run(proposal: Proposal) -> tuple[Proposal, RunRecord]:
        record = run_proposal(client, pair, proposal, base_image)
        session.add_run(record)
        return proposal, record

    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    futures = [pool.submit(run, proposal) for proposal in todo]
    try:
        for future in as_completed(futures):
            on_run(*future.result())
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        pool.shutdown(wait=True)
    if all(row.status in ("agree", "DISAGREE", "failed") for row in rows(session, pair)):
        session.finish()


def rows(session: Session, pair: TaskPair) -> list[Row]:
    runs, settlements = session.runs(), session.settlements()
    result = []
    for proposal in session.proposals():
        run = runs.get(proposal.id)
        expected = run.expected if run else proposal.expected(pair.side(proposal.side))
        settled = settlements[proposal.id].decision if proposal.id in settlements else ""
        result.append(Row(proposal, expected, run, settled))
    return result


def review(client: docker.DockerClient, root: Path, pair: TaskPair, proposer, *, per_kind: int, workers: int,
           base_image: str, on_run: Callable[[Proposal, RunRecord], None] = lambda proposal, record: None,
           on_open: Callable[[Session, bool], None] = lambda session, resumed: None) -> tuple[Session, list[Row]]:
    """Gather proposals and run them in the pair's open (resumed) or a new session; the session's rows."""
    if per_kind < 1:
        raise BadInput("--per-kind must be at least 1")
    session, resumed = open_session(root, pair, proposer.name, per_kind)
    on_open(session, resumed)
    gather(session, pair, proposer, per_kind)
    run_all(client, session, pair, base_image=base_image, workers=workers, on_run=on_run)
    return session, rows(session, pair)
