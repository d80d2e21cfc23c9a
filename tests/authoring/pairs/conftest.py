import shutil
from pathlib import Path

import pytest

from authoring.pairs.format import load_pair, rehash

SHIPPED = Path(__file__).parents[3] / "generated_tasks"


@pytest.fixture
def pair_copy(tmp_path):
    """A fresh, editable copy of a shipped pair: call with its id."""

    def copy(pair_id: str):
        folder = tmp_path / "generated_tasks" / pair_id
        shutil.copytree(SHIPPED / pair_id, folder, ignore=shutil.ignore_patterns("__pycache__"))
        return folder

    return copy


def reload(folder: Path):
    rehash(folder)
    return load_pair(folder)
