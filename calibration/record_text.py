"""One run record as plain text for a person: what ran, how it ended and why, then the conversation."""

from __future__ import annotations

import json
from typing import Any

from calibration.records import failure_evidence, harness_label, model_label


def record_text(record: dict[str, Any]) -> str:
    key, pair = record["key"], record["pair"]
    timings, counts = record.get("timings") or {}, record.get("usage") or {}
    lines = [
        f"{key['batch']} / {key['pair']} / {key['side']} run {key['index']}: {record['outcome']}"
        + ("" if record.get("finished") else " (not finished: run again on resume)"),
        f"pair {pair.get('id')} ({pair.get('cell')}), content {str(pair.get('content_hash', ''))[:12]}",
        f"{model_label(record)} × {harness_label(record)}",
        f"started {timings.get('started_at', '?')}, {timings.get('seconds', '?')} s, "
        f"{len(record.get('attempts') or []) + 1} attempt(s), {counts.get('model_calls', 0)} model call(s), "
        f"{counts.get('prompt_tokens', 0)} prompt + {counts.get('completion_tokens', 0)} completion tokens, "
        f"{counts.get('commands', 0)} command(s)",
        *(f"  {line}" for line in failure_evidence(record)),
    ]
    for number, message in enumerate((record.get("trajectory") or {}).get("messages", [])):
        lines += ["", f"── {number} {message.get('role', '?')} " + "─" * 40, *message_lines(message)]
    return "\n".join(lines)


def message_lines(message: dict[str, Any]) -> list[str]:
    extra = message.get("extra") or {}
    if message.get("role") == "tool":
        return [f"exit {extra.get('returncode', '?')}", str(extra.get("raw_output", message.get("content", "")))]
    if message.get("role") == "exit":
        return [f"exit status {extra.get('exit_status', '')}"]
    content = message.get("content")
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, indent=1)
    lines = [text] if text else []
    return lines + [f"$ {action.get('command', '')}" for action in extra.get("actions", [])]
