"""Which oracle items a test command collects: the default selection, `--oracle`, and `-k` picking whole pairs."""

import subprocess
import sys
from pathlib import Path

from authoring.pairs.format import SideKind, load_pair, load_pairs
from authoring.pairs.oracle_set import smoke_references

from .conftest import SHIPPED
from .failure_classes import ALWAYS_RUN

ROOT = Path(__file__).parents[3]


def collected(*arguments: str) -> set[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "tests/authoring/pairs/test_oracle.py", *arguments], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode in (0, 5), done.stdout + done.stderr
    return {line.split("[", 1)[1].rstrip("]") for line in done.stdout.splitlines() if "::test_reference_path[" in line}


def test_k_runs_every_path_of_a_pair_and_none_runs_none():
    pair = load_pair(SHIPPED / "purge-qa-orders")
    every = {f"purge-qa-orders:{kind}/{ref}" for kind in SideKind for ref in pair.side(kind).reference_names()}
    assert collected("-k", "purge-qa-orders") == every
    assert collected("--oracle", "none") == set()


def test_the_default_selection_holds_the_smoke_set_and_the_failure_classes():
    smoke = {f"{pair.id}:{kind}/{ref}" for pair in load_pairs(SHIPPED) for kind in SideKind
             for ref in smoke_references(pair, kind)}
    assert collected("--oracle", "smoke") == smoke
    default = collected()
    assert smoke <= default
    assert {name.replace(" ", ":") for name in ALWAYS_RUN} <= default
