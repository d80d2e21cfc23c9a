"""The one report of a judge program: `report(obj)` writes it framed with the launcher's token, where the launcher
made the program's output its own (no other process can write there), and `ctx.judge_report` reads it back or fails
closed. What else the program prints cannot pass for a report: it never holds the token."""

import json

REPORT_MARK = "@@v3ast-report@@"
_channel: dict = {}


def bind(stream, token: str) -> None:
    """Called by the launcher before the program runs: where reports go and the token that frames them."""
    _channel.update(stream=stream, token=token, made=False)


def report(obj: dict | list) -> None:
    """Write the program's report (a JSON object or list), once."""
    if "stream" not in _channel:
        raise RuntimeError("report() outside a judge program's launcher")
    if _channel["made"]:
        raise RuntimeError("a judge program reports once")
    if not isinstance(obj, dict | list):
        raise TypeError(f"a report is a dict or a list, not {type(obj).__name__}")
    _channel["made"] = True
    _channel["stream"].write(f"\n{REPORT_MARK}{_channel['token']} {json.dumps(obj)}\n")
    _channel["stream"].flush()
