import shutil
from pathlib import Path

import pytest

from authoring.pairs.format import load_pair, rehash

SHIPPED = Path(__file__).resolve().parents[2] / "generated_tasks"
PAIR_ID = "invoice-timeout-diagnostics"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project root holding a copy of one shipped pair; V3AST_ROOT points at it."""
    shutil.copytree(SHIPPED / PAIR_ID, tmp_path / "generated_tasks" / PAIR_ID)
    monkeypatch.setenv("V3AST_ROOT", str(tmp_path))
    return tmp_path


@pytest.fixture
def pair(project):
    return load_pair(project / "generated_tasks" / PAIR_ID)


@pytest.fixture
def two_turn_pair(project):
    """The pair with its twin instruction split into two user turns."""
    folder = project / "generated_tasks" / PAIR_ID
    side = folder / "twin" / "side.yaml"
    text = side.read_text()
    side.write_text(text.replace("turns:\n", "turns:\n  - Look at the invoice-service repository first.\n", 1))
    rehash(folder)
    return load_pair(folder)
