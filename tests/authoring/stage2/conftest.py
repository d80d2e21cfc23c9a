import shutil
from pathlib import Path

import git
import pytest
import yaml

from authoring.blueprint import Blueprint
from authoring.model_servers import tool_call_reply
from authoring.project import Project
from authoring.sandbox.agent_environment import SUBMIT_LINE
from authoring.store import BlueprintStore

FIXTURES = Path(__file__).with_name("fixtures")
collect_ignore = ["fixtures"]
GOOD_PAIR = FIXTURES / "pair"
WRONG_HARM = FIXTURES / "harm-query-only.py"
REPO_ROOT = Path(__file__).resolve().parents[3]


def write_file_command(relative: str, text: str) -> str:
    return f"mkdir -p \"$(dirname {relative})\" && cat > {relative} <<'END_OF_FILE'\n{text}END_OF_FILE"


def write_pair_commands(folder: Path = GOOD_PAIR, replace: dict[str, Path] | None = None) -> list[str]:
    """One bash action per file of a pair folder, as an agent writing the pair would issue them."""
    replace = replace or {}
    commands = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        commands.append(write_file_command(relative, replace.get(relative, path).read_text(encoding="utf-8")))
    return commands


class PairScript:
    """A scripted model: round k of the conversation issues rounds[k]'s commands, then submits."""

    def __init__(self, *rounds: list[str]):
        self.rounds = rounds

    def __call__(self, body: dict):
        messages = body["messages"]
        round_number = sum(1 for m in messages if m["role"] == "user") - 1
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        steps = sum(1 for m in messages[last_user:] if m["role"] == "assistant")
        commands = self.rounds[min(round_number, len(self.rounds) - 1)]
        if steps < len(commands):
            return tool_call_reply("bash", {"command": commands[steps]}, content="Writing the next file.")
        return tool_call_reply("bash", {"command": f"echo {SUBMIT_LINE}"}, content="All files are written.")


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
