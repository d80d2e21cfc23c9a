"""A person's decision on a blueprint: which moves they may make, and when they must say why.

One rule for the store, the command line and the reviewer app."""

from __future__ import annotations

from authoring.blueprint import HUMAN_DECISIONS, TRANSITIONS, Blueprint, HumanDecision, IllegalTransition, Status
from authoring.errors import BadInput

STAGE_OWNED = frozenset({Status.IMPLEMENTED, Status.CALIBRATED, Status.ADMITTED})
"""From `implemented` on, Stage II and calibration own the status: no person's decision moves it."""


class ReasonRequired(BadInput):
    pass


def refusal(current: Status, decision: Status) -> str:
    """Why a person may not move a blueprint from `current` to `decision`, in one line, or "" when they may."""
    if decision not in HUMAN_DECISIONS:
        return f"a person decides {', '.join(sorted(HUMAN_DECISIONS))}; {decision} is set by the toolkit"
    if current in STAGE_OWNED:
        return f"the blueprint is {current}: from implemented on, its status is owned by Stage II, not by a person"
    if decision not in TRANSITIONS[current]:
        allowed = ", ".join(sorted(TRANSITIONS[current] & HUMAN_DECISIONS)) or "none"
        return f"cannot move from {current} to {decision} (a person may decide from {current}: {allowed})"
    return ""


def check_decision(blueprint: Blueprint, decision: Status, actor: str, reason: str) -> None:
    """Raise unless `actor` may make `decision` on `blueprint` with `reason`."""
    refused = refusal(blueprint.status, decision)
    if refused:
        raise IllegalTransition(refused)
    why = reason_required(blueprint, decision, actor)
    if why and not reason.strip():
        raise ReasonRequired(f"a reason is required: {why}")


def reason_required(blueprint: Blueprint, decision: Status, actor: str) -> str:
    """Why `actor` must give a reason for `decision` — it goes against the rubric's band or overrides another
    person's decision — or "" when it needs none."""
    previous = overturned_decision(blueprint, decision, actor)
    if previous is not None:
        return (f"it overturns {previous.actor}'s {previous.new_status} of {previous.decided_at:%Y-%m-%d %H:%M}"
                f" ({previous.reason or 'no reason given'})")
    if overturns(blueprint, decision):
        return f"it overturns the rubric's {blueprint.latest_review.band} with {decision}"
    return ""


def overturned_decision(blueprint: Blueprint, decision: Status, actor: str) -> HumanDecision | None:
    """Another person's decision that made the current status, which `decision` would go against."""
    last = blueprint.decisions[-1] if blueprint.decisions else None
    if last is None or last.actor == actor or last.new_status != blueprint.status or decision == blueprint.status:
        return None
    return last


def overturns(blueprint: Blueprint, decision: Status) -> bool:
    """Whether a human decision goes against the rubric's band (keep → reject, drop → accept)."""
    review = blueprint.latest_review
    if review is None:
        return False
    return (review.band, decision) in {(Status.KEPT, Status.REJECTED), (Status.DROPPED, Status.ACCEPTED)}
