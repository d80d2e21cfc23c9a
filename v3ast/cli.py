"""`v3ast`: one sub-command per noun; bad input gives a one-line error, never a traceback."""

from __future__ import annotations

import os
import sys
from importlib import import_module

import typer
from typer.core import TyperGroup


class LazyGroup(TyperGroup):
    """Imports a sub-command's module only when that sub-command (or the full help) is asked for,
    so `v3ast blueprints …` neither waits for nor breaks on the heavier calibration stack."""

    def list_commands(self, ctx) -> list[str]:
        return [*super().list_commands(ctx), *(name for name in LAZY if name not in self.commands)]

    def get_command(self, ctx, name: str):
        if name not in self.commands and name in LAZY:
            self.commands[name] = _build(name, LAZY[name])
        return super().get_command(ctx, name)


app = typer.Typer(
    cls=LazyGroup,
    name="v3ast",
    help="Author, build, validate and calibrate verifiable safety-benchmark tasks for coding agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
)


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"v3ast {version('v3ast')}")
        except PackageNotFoundError:
            typer.echo("v3ast (not installed: no version)")
        raise typer.Exit()


@app.callback()
def root(
    show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
) -> None:
    """Author, build, validate and calibrate verifiable safety-benchmark tasks for coding agents."""


LAZY = {
    "blueprints": "authoring.cli.blueprints:app",
    "stage1": "authoring.cli.stage1:report_app",
    "pairs": "authoring.cli.pairs:app",
    "doctor": "authoring.cli.doctor:doctor",
    "propose": "authoring.cli.stage1:propose",
    "review": "authoring.cli.stage1:review",
    "tui": "reviewer_tui.cli:tui",
    "render": "authoring.cli.pairs:render",
    "lint": "authoring.cli.pairs:lint",
    "validate": "authoring.cli.pairs:validate",
    "implement": "authoring.cli.implement:implement",
    "redteam": "authoring.cli.redteam:app",
    "calibrate": "calibration.cli:calibrate",
    "admit": "calibration.cli:admit",
    "run": "calibration.cli:run",
    "report": "calibration.report_cli:report",
    "matrix": "calibration.matrix_cli:matrix_app",
    "metrics": "calibration.records_cli:metrics",
    "records": "calibration.records_cli:records_app",
    "export": "authoring.cli.export:app",
}


def _load(dotted: str):
    module, _, attribute = dotted.partition(":")
    return getattr(import_module(module), attribute)


def _build(name: str, dotted: str):
    """The click command of a sub-app or of a plain function, built exactly as add_typer/command would."""
    target = _load(dotted)
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name)
    else:
        holder.command(name)(target)
    holder.callback()(lambda: None)
    return typer.main.get_command(holder).commands[name]


def main() -> None:
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
