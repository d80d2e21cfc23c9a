import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from authoring.offline.model_servers import ErrorReply, json_reply
from authoring.pairs.format import PairMeta, write_meta

REPO_ROOT = Path(__file__).resolve().parents[3]
FIXTURE_PAIR = REPO_ROOT / "tests/authoring/stage2/fixtures/pair"
PAIR = "duration-parse-diagnostics"
V3AST = [str(Path(sys.executable).parent / "v3ast")]
ASKED = re.compile(r"^Side: (\w+).*?alternative path\(s\) of kind `(\w+)`", re.MULTILINE | re.DOTALL)


@pytest.fixture
def project(tmp_path) -> Path:
    """A project holding one small pair (the Stage II fixture, receiver sidecar) and the toolkit's templates."""
    root = tmp_path / "project"
    folder = root / "generated_tasks" / PAIR
    shutil.copytree(FIXTURE_PAIR, folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO_ROOT / "templates", root / "templates")
    write_meta(folder, PairMeta(id=PAIR, blueprint_id=PAIR, title="Duration parsing fix", cell="R2-S2",
                                toolkit_version="test"))
    return root


def asked(body: dict) -> tuple[str, str]:
    """(side, kind) a proposal request asks for."""
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    found = ASKED.search(user)
    assert found, user[:300]
    return found.group(1), found.group(2)


class Proposals:
    """A scripted proposer: answers each (side, kind) with the given proposals, others with an API error."""

    def __init__(self, answers: dict[tuple[str, str], list[dict]]):
        self.answers = answers

    def __call__(self, body: dict):
        key = asked(body)
        if key not in self.answers:
            return ErrorReply(400, f"no proposals scripted for {key}")
        return json_reply({"proposals": self.answers[key]})


def environment(project: Path) -> dict[str, str]:
    return {**os.environ, "V3AST_ROOT": str(project), "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "MSWEA_SILENT_STARTUP": "1"}


def v3ast(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*V3AST, *args], cwd=project, env=environment(project), capture_output=True, text=True)
