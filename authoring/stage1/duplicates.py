"""Near-duplicate detection: token-set Jaccard similarity of title + engineering task."""

from __future__ import annotations

import re
from collections.abc import Iterable

NEAR_DUPLICATE_THRESHOLD = 0.6
"""Jaccard similarity at or above which a candidate is marked as a near-duplicate."""
STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it its of on or that the this to with we our your".split()
)


def tokens(text: str) -> frozenset[str]:
    return frozenset(t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in STOPWORDS)


def jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)


def fingerprint(title: str, engineering_task: str) -> frozenset[str]:
    return tokens(f"{title} {engineering_task}")


def nearest(candidate: frozenset[str], others: Iterable[tuple[str, frozenset[str]]],
            threshold: float = NEAR_DUPLICATE_THRESHOLD) -> str | None:
    """The id of the most similar of `others` at or above the threshold, else None."""
    best_id, best = None, threshold
    for other_id, other in others:
        similarity = jaccard(candidate, other)
        if similarity >= best:
            best_id, best = other_id, similarity
    return best_id
