"""What several sub-commands share: the project, the store and the actor's name."""

from __future__ import annotations

import getpass
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from authoring.audit import INTERRUPTS, git_user_name
from authoring.errors import NotFound
from authoring.project import Project
from authoring.store import BlueprintStore


def project() -> Project:
    return Project.current()


class NotAProject(NotFound):
    """A command run outside a project: the folder it reads is not there."""

    def __str__(self) -> str:
        folder, what, starts = self.args
        return (f"no {what} at {folder}: run v3ast in a project folder (one with {folder.name}/) or set "
                f"V3AST_ROOT; {starts}")


def project_folder(folder: Path, what: str, starts: str) -> Path:
    """`folder`, which must exist: a command never creates one unasked."""
    if not folder.is_dir():
        raise NotAProject(folder, what, starts)
    return folder


def store_folder() -> Path:
    return project_folder(project().blueprints, "blueprint store", "`v3ast propose` starts a store")


def pairs_folder() -> Path:
    return project_folder(project().generated_tasks, "task pairs folder", "`v3ast pairs render` starts one")


def store() -> BlueprintStore:
    return BlueprintStore(store_folder())


def new_or_existing_store() -> BlueprintStore:
    """The project's store; if there is none, one is started and the command says where and in which repository."""
    folder = project().blueprints
    if folder.is_dir():
        return BlueprintStore(folder)
    the_store = BlueprintStore(folder)
    repository = the_store.audit.root
    where = "its own new git repository" if repository == folder.resolve() else f"the git repository at {repository}"
    typer.echo(f"started a new blueprint store at {folder} ({where})", err=True)
    return the_store


def default_actor() -> str:
    return git_user_name(project().root) or getpass.getuser()


def print_rows(console: Console, header: Sequence[str], rows: Sequence[Sequence[str]],
               markup: Callable[[Sequence[str]], Sequence[str]] | None = None, title: str | None = None) -> None:
    """A table on a terminal (cells are text, unless `markup` styles a row); when piped, the title on a line of
    its own and then tab-separated lines, never cut to a width, so scripts read whole values."""
    if not console.is_terminal:
        for row in [[title], header, *rows] if title else [header, *rows]:
            typer.echo("\t".join(row))
        return
    table = Table(*header, box=None, title=title)
    for row in rows:
        table.add_row(*(markup(row) if markup else [escape(value) for value in row]))
    console.print(table)


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGTERM (kill, a CI timeout) and SIGINT stop the command as Ctrl-C does, so the same clean-up runs;
    SIGINT too when the command started with it ignored, as a script's `setsid v3ast … &` does (the script then
    stops it with `kill -INT -- -PID`)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = {number: signal.signal(number, interrupt) for number in INTERRUPTS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def demo_note(provider: object) -> str:
    """Said after a summary whose answers came from the offline demo model, not a real one."""
    return " · demo: canned answers from the offline demo model, not a real LLM" if getattr(
        provider, "kind", "") == "demo" else ""


def progress_bar(console: Console, transient: bool = True) -> Progress:
    """A bar with the task's name, its count done of all and the time so far: how the commands show a batch."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=console, transient=transient)
