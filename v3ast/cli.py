"""`v3ast NOUN VERB`: the command tree, loaded lazily. Expected errors (`V3astError`) and usage errors print one
line; anything else is a bug and prints its traceback."""

from __future__ import annotations

import copy
import errno
import select
import sys
from dataclasses import dataclass
from importlib import import_module

import typer
from typer._click.exceptions import NoArgsIsHelpError
from typer.core import TyperGroup

from authoring.errors import V3astError
from authoring.settings import prepare_agent_environment, settings


@dataclass(frozen=True)
class Noun:
    help: str
    verbs: dict[str, str]
    """verb → `module:attribute`, a command function or a Typer app of its own verbs."""


TREE: dict[str, str | Noun] = {
    "blueprints": "authoring.cli.blueprints:app",
    "tui": "reviewer_tui.cli:tui",
    "stage1": Noun("Stage I: blueprint proposals, rubric reviews and what they cost and agree on.", {
        "propose": "authoring.cli.stage1:propose",
        "review": "authoring.cli.stage1:review",
        "report": "authoring.cli.stage1:report",
        "agreement": "authoring.cli.stage1:agreement_command",
    }),
    "pairs": Noun("Task pairs: scaffold, implement, check, prove, attack and maintain them.", {
        "render": "authoring.cli.pairs:render",
        "implement": "authoring.cli.implement:implement",
        "lint": "authoring.cli.pairs:lint",
        "validate": "authoring.cli.pairs:validate",
        "mutate": "authoring.cli.mutate:mutate",
        "redteam": "authoring.cli.redteam:app",
        "diff": "authoring.cli.pairs:diff",
        "list": "authoring.cli.pairs:list_",
        "rehash": "authoring.cli.pairs:rehash_",
    }),
    "calibration": Noun("Calibration: run pairs with the reference model and admit those that pass.", {
        "run": "calibration.cli:calibrate",
        "admit": "calibration.cli:admit",
    }),
    "evaluation": Noun("The shared runner: a model × harness, or a whole matrix of them, on admitted pairs.", {
        "run": "calibration.cli:run",
        "matrix": "calibration.matrix_cli:matrix_app",
    }),
    "records": Noun("Run records of calibration and evaluation: reports, metrics, one record, the index.", {
        "report": "calibration.report_cli:report",
        "metrics": "calibration.records_cli:metrics",
        "show": "calibration.records_cli:show",
        "reindex": "calibration.records_cli:reindex",
        "view": "calibration.viewer_cli:view",
    }),
    "export": "calibration.export_cli:app",
    "doctor": "authoring.cli.doctor:doctor",
}
ALIASES = {
    "propose": ("stage1", "propose"), "review": ("stage1", "review"),
    "render": ("pairs", "render"), "implement": ("pairs", "implement"), "lint": ("pairs", "lint"),
    "validate": ("pairs", "validate"), "redteam": ("pairs", "redteam"),
    "calibrate": ("calibration", "run"), "admit": ("calibration", "admit"),
    "run": ("evaluation", "run"), "matrix": ("evaluation", "matrix"),
    "report": ("records", "report"), "metrics": ("records", "metrics"),
}
"""The flat verbs of earlier versions, still accepted (hidden from the help, which shows one way to do each thing)."""


class LazyGroup(TyperGroup):
    """Imports a command's module only when that command (or its group's full help) is asked for, so
    `v3ast blueprints …` neither waits for nor breaks on the heavier calibration stack."""

    def __init__(self, *args, entries: dict[str, str | Noun] | None = None, aliases: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = TREE if entries is None else entries
        self.aliases = ALIASES if aliases is None else aliases

    def list_commands(self, ctx) -> list[str]:
        return [*super().list_commands(ctx), *(name for name in self.entries if name not in self.commands)]

    def invoke(self, ctx):
        """As click's, but a broken pipe or connection that is not this process's own output is an error of one
        line (click would exit 1 without a word)."""
        try:
            return super().invoke(ctx)
        except OSError as error:
            if error.errno == errno.EPIPE and not _own_output_closed():
                raise ConnectionBroke(f"a pipe or connection was closed while this command wrote to it: {error}") \
                    from error
            raise

    def get_command(self, ctx, name: str):
        if name not in self.commands and name in self.entries:
            self.commands[name] = _build(name, self.entries[name])
        if name not in self.commands and name in self.aliases:
            noun, verb = self.aliases[name]
            alias = copy.copy(self.get_command(ctx, noun).get_command(ctx, verb))
            alias.hidden = True
            self.commands[name] = alias
        return super().get_command(ctx, name)


app = typer.Typer(
    cls=LazyGroup,
    name="v3ast",
    help="Author, build, validate and calibrate verifiable safety-benchmark tasks for coding agents.",
    epilog="The flat verbs of earlier versions still work: " + ", ".join(
        f"{alias} = {' '.join(target)}" for alias, target in ALIASES.items()) + ".",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
)


def _version(asked: bool) -> None:
    if asked:
        from authoring.version import toolkit_version

        typer.echo(f"v3ast {toolkit_version()}")
        raise typer.Exit()


@app.callback()
def root(
    show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
) -> None:
    """Author, build, validate and calibrate verifiable safety-benchmark tasks for coding agents."""


def _load(dotted: str):
    module, _, attribute = dotted.partition(":")
    return getattr(import_module(module), attribute)


def _build(name: str, entry: str | Noun):
    """The click command of a noun, a sub-app or a plain function, built exactly as add_typer/command would."""
    if isinstance(entry, Noun):
        return LazyGroup(name=name, help=entry.help, entries=entry.verbs, aliases={}, no_args_is_help=True)
    target = _load(entry)
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name)
    else:
        holder.command(name)(target)
    holder.callback()(lambda: None)
    return typer.main.get_command(holder).commands[name]


class ConnectionBroke(V3astError):
    """Something this command wrote to (a service, a child process) went away."""


def _own_output_closed() -> bool:
    """Whether whoever reads this process's stdout or stderr has gone (`v3ast … | head`): then exiting quietly is
    right."""
    poller = select.poll()
    for stream in (sys.stdout, sys.stderr):
        try:
            poller.register(stream.fileno(), 0)
        except (AttributeError, OSError, ValueError):
            continue
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


def _debugging() -> bool:
    try:
        return settings().debug
    except V3astError:
        return False


def _one_line(message: str) -> str:
    return " ".join(message.split())


def main() -> None:
    prepare_agent_environment()
    run(app)


def run(command: typer.Typer, args: list[str] | None = None) -> None:
    """Run `command` (sys.argv by default) and exit: expected and usage errors as one line, bugs as a traceback."""
    try:
        code = command(args=args, standalone_mode=False)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except typer.Exit as error:
        sys.exit(error.exit_code)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except NoArgsIsHelpError as error:  # typer's rich mode has printed the help already; plain click puts it here
        if error.format_message().strip():
            print(error.format_message())
        sys.exit(error.exit_code)
    except typer.TyperException as error:  # click's usage errors: an unknown command, a missing or bad option
        print(f"error: {_one_line(error.format_message()) or type(error).__name__}", file=sys.stderr)
        sys.exit(error.exit_code)
    except (V3astError, OSError) as error:  # OSError: a missing, unreadable or unwritable file, a full disk
        if _debugging():
            raise
        print(f"error: {_one_line(str(error)) or type(error).__name__}", file=sys.stderr)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
