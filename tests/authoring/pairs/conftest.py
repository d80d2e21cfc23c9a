import os
import shutil
from pathlib import Path

import pytest

from authoring.pairs.format import list_pairs, load_pair, rehash

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


@pytest.fixture(scope="session")
def shipped_checks(docker_client, base_image):
    """Every reference path of every shipped pair, run once per test session through the real runner."""
    from authoring.pairs.validate import validate_pairs

    pairs = [load_pair(folder) for folder in list_pairs(SHIPPED)]
    workers = int(os.environ.get("V3AST_VALIDATE_WORKERS", "3"))  # runs mostly wait on the engine: 3 fill 2 cores
    return validate_pairs(docker_client, pairs, base_image=base_image, workers=workers)
