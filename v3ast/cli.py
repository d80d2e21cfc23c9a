"""`v3ast`: one sub-command per noun; bad input gives a one-line error, never a traceback."""

from __future__ import annotations

import os
import sys
from importlib import import_module
from importlib.util import find_spec

import typer

app = typer.Typer(
    name="v3ast",
    help="Author, build, validate and calibrate verifiable safety-benchmark tasks for coding agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

SUB_APPS = {
    "blueprints": "authoring.cli.blueprints:app",
    "stage1": "authoring.cli.stage1:report_app",
    "pairs": "authoring.cli.pairs:app",
}
COMMANDS = {
    "doctor": "authoring.cli.doctor:doctor",
    "propose": "authoring.cli.stage1:propose",
    "review": "authoring.cli.stage1:review",
    "tui": "reviewer_tui.cli:tui",
    "render": "authoring.cli.pairs:render",
    "lint": "authoring.cli.pairs:lint",
    "validate": "authoring.cli.pairs:validate",
    "implement": "authoring.cli.implement:implement",
    "calibrate": "calibration.cli:calibrate",
    "admit": "calibration.cli:admit",
    "run": "calibration.cli:run",
    "report": "calibration.cli:report",
    "metrics": "calibration.cli:metrics",
}


def _load(dotted: str):
    module, _, attribute = dotted.partition(":")
    return getattr(import_module(module), attribute)


def _mount() -> None:
    for name, dotted in SUB_APPS.items():
        if _exists(dotted):
            app.add_typer(_load(dotted), name=name)
    for name, dotted in COMMANDS.items():
        if _exists(dotted):
            app.command(name)(_load(dotted))


def _exists(dotted: str) -> bool:
    """Whether a sub-command's module is present (parts of the toolkit land one at a time)."""
    return find_spec(dotted.partition(":")[0]) is not None


def main() -> None:
    _mount()
    try:
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:  # the CLI boundary: one line, exit non-zero
        if os.environ.get("V3AST_DEBUG"):
            raise
        if isinstance(error, typer.Exit):
            sys.exit(error.exit_code)
        if isinstance(error, typer.Abort):
            print("aborted", file=sys.stderr)
            sys.exit(130)
        if type(error).__name__ == "NoArgsIsHelpError":  # click puts the help in the message; typer's rich mode has printed it
            if error.format_message().strip():
                print(error.format_message())
            sys.exit(error.exit_code)
        # click's exceptions, or typer's vendored copies of them (typer ≥ 0.2x): usage errors and the like
        usage_error = hasattr(error, "format_message") and isinstance(getattr(error, "exit_code", None), int)
        message = " ".join((error.format_message() if usage_error else str(error)).split()) or type(error).__name__
        print(f"error: {message}", file=sys.stderr)
        sys.exit(error.exit_code if usage_error else 1)
    sys.exit(code if isinstance(code, int) else 0)
