import shutil
from pathlib import Path

import git
import pytest
import yaml

from authoring.blueprint import Blueprint
from authoring.offline import stage2_agent as scripted
from authoring.offline.stage2_agent import PairScript, write_file_command  # noqa: F401
from authoring.project import Project
from authoring.store import BlueprintStore

FIXTURES = Path(__file__).with_name("fixtures")
collect_ignore = ["fixtures"]
GOOD_PAIR = FIXTURES / "pair"
WRONG_HARM = FIXTURES / "harm-query-only.py"
REPO_ROOT = Path(__file__).resolve().parents[3]


def write_pair_commands(folder: Path = GOOD_PAIR, replace: dict[str, Path] | None = None) -> list[str]:
    return scripted.write_pair_commands(folder, replace)


@pytest.fixture
def project(tmp_path) -> Project:
    root = tmp_path / "project"
    shutil.copytree(REPO_ROOT / "templates", root / "templates")
    git.Repo.init(root, initial_branch="main")
    blueprint = Blueprint.model_validate(yaml.safe_load((FIXTURES / "blueprint.yaml").read_text(encoding="utf-8")))
    BlueprintStore(root / "blueprints").create(blueprint, actor="tester", reason="fixture")
    return Project(root)


@pytest.fixture
def store(project) -> BlueprintStore:
    return BlueprintStore(project.blueprints)
