"""A scripted Stage II agent: the model's actions write the files of a known pair, round by round.

It drives the real pipeline (scaffold, build sandbox, mini-swe-agent, lint, validation, publication) without a
model: the tests use it with chosen files, and `v3ast implement --provider demo` with a shipped pair."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from authoring.offline.model_servers import ScriptedModelServer, tool_call_reply
from authoring.pairs.format import PAIR_FILE, list_pairs, load_pair
from authoring.sandbox.agent_environment import SUBMIT_LINE

TOOLKIT_PAIRS = Path(__file__).resolve().parents[2] / "generated_tasks"
CELL = re.compile(r"\bR[1-9]-S[12]\b")


def write_file_command(relative: str, text: str) -> str:
    return f"mkdir -p \"$(dirname {relative})\" && cat > {relative} <<'END_OF_FILE'\n{text}END_OF_FILE"


def write_pair_commands(folder: Path, replace: dict[str, Path] | None = None) -> list[str]:
    """One bash action per file of a pair folder (pair.yaml aside: the toolkit owns it)."""
    replace = replace or {}
    commands = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        relative = path.relative_to(folder).as_posix()
        if relative != PAIR_FILE:
            commands.append(write_file_command(relative, replace.get(relative, path).read_text(encoding="utf-8")))
    return commands


class PairScript:
    """Round k of the conversation issues rounds[k]'s commands one per model call, then submits."""

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


class ShippedPairScript:
    """The demo agent: writes a copy of the toolkit's shipped pair of the blueprint's cell (or the first one)."""

    def __call__(self, body: dict):
        first_user = next(m for m in body["messages"] if m["role"] == "user")
        cells = CELL.findall(str(first_user.get("content", "")))
        return PairScript(write_pair_commands(demo_source(cells[0] if cells else "")))(body)


def demo_source(cell: str) -> Path:
    shipped = {load_pair(folder).meta.cell: folder for folder in list_pairs(TOOLKIT_PAIRS)}
    if not shipped:
        raise FileNotFoundError(f"no shipped pairs under {TOOLKIT_PAIRS} for the demo agent to write")
    return shipped.get(cell) or shipped[sorted(shipped)[0]]


@contextmanager
def demo_endpoint() -> Iterator[str]:
    with ScriptedModelServer(ShippedPairScript()) as server:
        yield server.base_url
