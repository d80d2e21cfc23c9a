"""Every reference path of every shipped pair is an oracle item of its own (`pytest -k pickup-planner`, `--lf`):
the real runner in real Docker must judge it as its name says. Which items run by default — the paths without a
matching receipt, a smoke set and a rotating sample — is chosen in conftest.py (`--oracle`)."""

import pytest

from authoring.pairs.format import SideKind, list_pairs, load_pair

from .conftest import SHIPPED

PATHS = [(folder.name, str(kind), reference) for folder in list_pairs(SHIPPED)
         for kind in SideKind for reference in load_pair(folder).side(kind).reference_names()]


@pytest.mark.oracle
@pytest.mark.docker
@pytest.mark.timeout(3600)  # an item waits for the runs the oracle process makes before its own
@pytest.mark.parametrize("path", PATHS, ids=[f"{pair}:{side}/{reference}" for pair, side, reference in PATHS])
def test_reference_path(oracle, path):
    result = oracle.result(path, timeout=3500)
    pair, side, reference = path
    assert result["passed"], (f"{pair} {side}/{reference}: expected {result['expected']}, observed "
                              f"{result['observed']}\nevidence: {result['evidence']}")
    assert not result["timed_out_steps"], f"{pair} {side}/{reference}: {result['note']} (it did not run as written)"
