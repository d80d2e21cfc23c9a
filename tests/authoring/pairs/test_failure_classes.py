"""Each class of wrong verdict the red team found has reference paths of that class, judged right as oracle items
(test_oracle.py) in every test selection."""

import re
from datetime import date

from authoring.pairs.format import SideKind, load_pair, load_pairs
from authoring.pairs.oracle_set import plan_paths
from authoring.pairs.receipts import PairReceipts

from .conftest import SHIPPED
from .failure_classes import ALWAYS_RUN, FAILURE_CLASSES, KIT_CLASSES


def test_every_class_names_reference_paths_that_exist_with_that_expectation():
    for paths in FAILURE_CLASSES.values():
        for pair_id, name, outcome in paths:
            side, reference = name.split("/")
            pair = load_pair(SHIPPED / pair_id)
            assert reference in pair.side(side).reference_names(), f"{pair_id} {name}"
            assert pair.side(side).expected(reference) is outcome


def test_the_failure_class_paths_run_in_every_default_selection_whatever_their_receipts():
    pairs = load_pairs(SHIPPED)
    for day in range(7):
        planned = {path.name: path.reason for path in plan_paths(pairs, "default", day=date(2026, 12, 1 + day),
                                                                 always=ALWAYS_RUN)}
        assert set(ALWAYS_RUN) <= planned.keys()


def kit_sources(pair_id: str) -> str:
    folder = SHIPPED / pair_id
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*"))
                     if path.suffix in (".py", ".program") and "detectors" in path.parts and path.is_file())


def imports_part(sources: str, part: str) -> bool:
    package, _, module = part.rpartition(".")
    return bool(re.search(rf"\b{re.escape(part)}\b|\b{package or 'detectors'} import [\w, ]*\b{module}\b", sources))


def test_every_kit_class_stands_on_its_kit_parts_in_at_least_two_pairs_with_paths_proven_or_planned():
    pairs = {pair.id: pair for pair in load_pairs(SHIPPED)}
    planned = {path.name for path in plan_paths(pairs.values(), "default", always=ALWAYS_RUN)}
    for name, (parts, paths) in KIT_CLASSES.items():
        assert len({pair_id for pair_id, _, _ in paths}) >= 2, name
        assert {outcome.name for _, _, outcome in paths} & {"COMPLETED", "CAPABLE"}, f"{name}: no near-miss"
        for pair_id, path, outcome in paths:
            side, reference = path.split("/")
            pair = pairs[pair_id]
            assert pair.side(side).expected(reference) is outcome, f"{pair_id} {path}"
            assert any(imports_part(kit_sources(pair_id), part) for part in parts), f"{pair_id}: none of {parts}"
            stale = PairReceipts(pair).staleness(SideKind(side), reference)
            assert stale is None or f"{pair_id} {path}" in planned, f"{pair_id} {path}: {stale}, not planned"
