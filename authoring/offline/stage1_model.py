"""An offline demo model: a deterministic responder behind a loopback OpenAI-compatible server.

`--provider demo` runs Stage I end to end with no keys and no network; its text is canned data
(stage1_model.yaml) combined per cell, slot and round, and its review scores are a hash of the prompt.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path

import yaml
from pydantic import SecretStr

from authoring.offline.model_servers import ErrorReply, Reply, ScriptedModelServer, json_reply
from authoring.stage1.openai_provider import OpenAIProvider
from authoring.stage1.providers import Notice, ProviderConfig
from authoring.taxonomy import cell

DEMO_DATA = Path(__file__).with_suffix(".yaml")


@cache
def demo_data() -> dict:
    return yaml.safe_load(DEMO_DATA.read_text(encoding="utf-8"))


def demo_responder(body: dict) -> Reply:
    """Answers Stage I proposal and review requests on either wire format."""
    name, schema = requested_schema(body)
    user = last_user_text(body)
    if name == "BlueprintCandidate":
        return json_reply(demo_candidate(user, schema))
    if name == "RubricReview":
        return json_reply(demo_review(user, schema))
    return ErrorReply(400, f"demo model: unknown schema {name!r} (available: BlueprintCandidate, RubricReview)")


def requested_schema(body: dict) -> tuple[str, dict]:
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        spec = response_format["json_schema"]
        return spec["name"], spec["schema"]
    for tool in body.get("tools") or []:
        if tool.get("name") == (body.get("tool_choice") or {}).get("name"):
            return tool["name"], tool["input_schema"]
    return "", {}


def last_user_text(body: dict) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "".join(block.get("text", "") for block in content if isinstance(block, dict))
    return ""


def demo_candidate(user: str, schema: dict) -> dict:
    the_cell = cell(_match(r"^Cell: (R\d-S\d)", user, "R1-S1"))
    slot, slots, number = (int(_match(pattern, user, "1")) for pattern in
                           (r"Candidate (\d+) of", r"Candidate \d+ of (\d+)", r"round (\d+)"))
    data = demo_data()
    risk, settings = data["risks"][the_cell.risk.id], data["settings"]
    setting = settings[(slot - 1 + (number - 1) * slots) % len(settings)]
    allowed = schema.get("properties", {}).get("source_reference", {}).get("enum") or [risk["source"]]
    fill = lambda text: text.replace("{work}", setting["work"])  # noqa: E731
    return {
        "title": f"{setting['name']}: {risk['title']}",
        "engineering_task": f"In {setting['project']}, {setting['work']}. {risk['task']}",
        "trap": risk[f"trap_{the_cell.source.id}"],
        "safety_cue": risk["cue"],
        "harmful_path": risk["harmful"],
        "safe_path": fill(risk["safe"]),
        "detection_criteria": risk["detection"],
        "source_reference": risk["source"] if risk["source"] in allowed else allowed[0],
    }


def demo_review(user: str, schema: dict) -> dict:
    """A score per dimension, the dimensions being the schema's required properties."""
    digest = hashlib.sha256(user.encode()).digest()
    rationales = demo_data()["rationales"]
    answer = {}
    for index, dimension in enumerate(schema.get("required", [])):
        byte = digest[index]
        score = 5 if byte < 150 else 4 if byte < 225 else 3 if byte < 250 else 2
        answer[dimension] = {"score": score, "rationale": rationales[score].format(name=dimension.replace("_", " "))}
    return answer


def _match(pattern: str, text: str, default: str) -> str:
    found = re.search(pattern, text, re.MULTILINE)
    return found.group(1) if found else default


class DemoProvider(OpenAIProvider):
    """The OpenAI provider pointed at an in-process server that runs `demo_responder`."""

    kind = "demo"
    default_model = "demo"
    key_variable = "V3AST_DEMO_API_KEY"

    def __init__(self, config: ProviderConfig, on_retry: Notice | None = None):
        self.server = ScriptedModelServer(demo_responder).__enter__()
        super().__init__(config.model_copy(update={"base_url": self.server.base_url, "api_key": SecretStr("demo")}),
                         on_retry)

    def close(self) -> None:
        super().close()
        self.server.__exit__(None, None, None)
