"""A person settles a proposal: keep it in the pair as a reference path, or record that its expectation was wrong."""

from __future__ import annotations

from pathlib import Path

from authoring.errors import BadInput
from authoring.pairs.format import TaskPair, rehash
from authoring.redteam.records import Settlement, find_proposal, now


def settle(root: Path, pair: TaskPair, proposal_id: str, *, keep: bool, reason: str, actor: str) -> Settlement:
    """`keep`: write `<side>/reference/<kind>-<slug>.sh` (the rationale its first comment line) and rehash the
    pair; otherwise the expectation was wrong, for `reason`. Either is recorded in the proposal's session."""
    session, proposal = find_proposal(root, pair.id, proposal_id)
    if proposal.failed:
        raise BadInput(f"{proposal_id} is a failed proposal ({proposal.error}); there is nothing to settle")
    earlier = session.settlements().get(proposal_id)
    if earlier is not None:
        raise BadInput(f"{proposal_id} was already settled ({earlier.decision} by {earlier.actor} at {earlier.at})")
    if keep:
        path = pair.side(proposal.side).reference(proposal.reference)
        if path.exists():
            raise FileExistsError(f"{path} exists; the pair already has a reference path of that name")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(proposal.reference_text(), encoding="utf-8")
        rehash(pair.folder)
        settlement = Settlement(proposal=proposal_id, decision="keep", reason=reason,
                                reference=path.relative_to(pair.folder).as_posix(), actor=actor, at=now())
    else:
        if not reason.strip():
            raise BadInput("--expectation-wrong needs --reason: why the verdict, not the expectation, is right")
        settlement = Settlement(proposal=proposal_id, decision="expectation-wrong", reason=" ".join(reason.split()),
                                actor=actor, at=now())
    session.add_settlement(settlement)
    return settlement
