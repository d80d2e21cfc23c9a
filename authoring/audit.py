"""The git audit trail: every change to data under version control is a commit made with GitPython."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import git

from authoring.atomic import write_atomically
from authoring.errors import V3astError
from authoring.settings import settings

FALLBACK_COMMITTER = ("v3ast", "v3ast@localhost")
INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a command as Ctrl-C does; a change being written defers them."""


@dataclass(frozen=True)
class HistoryEntry:
    sha: str
    author: str
    when: datetime
    message: str


class WriteFailed(V3astError, RuntimeError):
    """A change that could not be written or committed; the files and the index are as they were."""


class GitApart(git.Git):
    """Runs each git in a process group of its own: an interrupt for v3ast's group (Ctrl-C, `kill -INT -- -PGID`)
    reaches v3ast, which defers it until its change is committed or undone, and never a `git commit` half way."""

    def execute(self, command, *args, **kwargs):
        return super().execute(command, *args, process_group=0, **kwargs)


class AuditRepo(git.Repo):
    GitCommandWrapperType = GitApart


class AuditTrail:
    """Commits single paths of the repository that holds a data folder (creating one if there is none)."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self.repo = AuditRepo(self.folder, search_parent_directories=True)
        except git.InvalidGitRepositoryError:
            self.repo = AuditRepo.init(self.folder)
        self.root = Path(self.repo.working_tree_dir).resolve()
        self.lock_path = Path(self.repo.git_dir) / "v3ast-audit.lock"
        self.journal_path = Path(self.repo.git_dir) / "v3ast-pending.json"
        """The change under way: each path's text before and after, until its commit is made or undone."""

    @contextmanager
    def locked(self) -> Iterator[None]:
        """An exclusive lock across processes for a read-modify-write-commit cycle; a change a killed
        process left half done is first finished (if committed) or undone (if not)."""
        try:
            handle = open(self.lock_path, "a")
        except OSError as error:
            raise WriteFailed(f"nothing written: cannot lock the store: {_reason(error)}") from None
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                try:
                    self.recover()
                except (OSError, git.GitCommandError) as error:
                    raise WriteFailed(f"nothing written: an interrupted change cannot be undone yet: "
                                      f"{_reason(error)}") from None
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def record(self, changes: dict[Path, str | None], message: str, actor: str) -> str | None:
        """Write each path's new text (None: delete it) and commit exactly those paths — all or nothing.

        Call under `locked()`. Any interruption, Ctrl-C included, undoes the files and their index
        entries; a kill -9 leaves the journal, and the next `locked()` finishes the undo."""
        paths = {path.resolve(): text for path, text in changes.items()}
        journal = {
            "head": self._head(),
            "paths": {self._relative(path): {"old": _text_of(path), "new": text, "mtime_ns": _mtime_ns(path)}
                      for path, text in paths.items()},
        }
        try:
            write_atomically(self.journal_path, json.dumps(journal))
        except OSError as error:
            raise WriteFailed(f"nothing written: cannot write to {self.journal_path.parent}: "
                              f"{_reason(error)}") from None
        try:
            with deferred_interrupts():
                for path, text in paths.items():
                    if text is None:
                        path.unlink(missing_ok=True)
                    else:
                        write_atomically(path, text)
                sha = self.commit(list(paths), message, actor)
        except BaseException as error:
            try:
                self._settle(journal)
            except (OSError, git.GitCommandError):
                pass  # the journal stays; the next locked() finishes the undo
            if isinstance(error, OSError | git.GitCommandError):
                raise WriteFailed(f"nothing written: {_reason(error)}") from None
            raise
        self.journal_path.unlink(missing_ok=True)
        return sha

    def recover(self) -> None:
        """Finish what a killed process left: keep a change that was committed, undo one that was not."""
        try:
            journal = json.loads(self.journal_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except ValueError:
            self.journal_path.unlink(missing_ok=True)
            return
        self._settle(journal)

    def _settle(self, journal: dict) -> None:
        for name in journal["paths"]:
            path = self.root / name
            for leftover in path.parent.glob(f".{path.name}.*.tmp"):  # write_atomically's, from a kill -9
                leftover.unlink(missing_ok=True)
        if self._committed(journal):
            self.journal_path.unlink(missing_ok=True)
        else:
            self._undo(journal)

    def _committed(self, journal: dict) -> bool:
        head = self._head()
        if head is None or head == journal["head"]:
            return False
        tree = self.repo.head.commit.tree
        for relative, texts in journal["paths"].items():
            try:
                now = tree[relative].data_stream.read().decode("utf-8")
            except KeyError:
                now = None
            if now != texts["new"]:
                return False
        return True

    def _undo(self, journal: dict) -> None:
        """Every path back to its old text and its index entry back to HEAD; the journal goes last,
        so an undo cut short is finished by the next `recover()`."""
        relative = list(journal["paths"])
        for name, texts in journal["paths"].items():
            path = self.root / name
            if texts["old"] is None:
                path.unlink(missing_ok=True)
            elif _text_of(path) != texts["old"]:
                write_atomically(path, texts["old"])
                if texts.get("mtime_ns"):  # untouched, as far as anyone watching the file can tell
                    os.utime(path, ns=(texts["mtime_ns"], texts["mtime_ns"]))
        if self._head() is None:
            self.repo.git.rm("--cached", "--quiet", "--ignore-unmatch", "--", *relative)
        elif self.repo.git.diff("--cached", "--name-only", "--", *relative).strip():
            self.repo.git.reset("--quiet", "--", *relative)
        self.journal_path.unlink(missing_ok=True)

    def _head(self) -> str | None:
        """HEAD's commit, None before the first; asked of a git of its own, since GitPython's long-lived
        `git cat-file` may have died, and its `head.is_valid()` would then take the repository for an empty one."""
        try:
            return self.repo.git.rev_parse("--verify", "--quiet", "HEAD^{commit}")
        except git.GitCommandError as error:
            if error.status == 1:
                return None
            raise

    def _relative(self, path: Path) -> str:
        return str(path.resolve().relative_to(self.root))

    def commit(self, paths: list[Path], message: str, actor: str) -> str | None:
        """Commit exactly `paths` (added, changed or deleted); returns the sha, or None if nothing changed."""
        relative = [str(p.resolve().relative_to(self.root)) for p in paths]
        existing = [r for r in relative if (self.root / r).exists()]
        if existing:
            self.repo.git.add("--", *existing)
        gone = [r for r in relative if not (self.root / r).exists() and self._tracked(r)]
        if gone:
            self.repo.git.rm("--cached", "--quiet", "--", *gone)
        if not self.repo.git.diff("--cached", "--name-only", "--", *relative).strip():
            return None
        with self.repo.git.custom_environment(**self._identity()):
            self.repo.git.commit("--quiet", "--no-verify", f"--author={_name(actor)} <{_email(actor)}>",
                                 "-m", message, "--only", "--", *relative)
        return self._head()

    def history(self, *paths: Path) -> list[HistoryEntry]:
        """Every commit that touched any of `paths`, newest first."""
        if not self.repo.head.is_valid():
            return []
        relative = [str(p.resolve().relative_to(self.root)) for p in paths]
        return [
            HistoryEntry(c.hexsha, c.author.name, c.authored_datetime, c.message.strip())
            for c in self.repo.iter_commits(paths=relative)
        ]

    def _tracked(self, relative: str) -> bool:
        return bool(self.repo.git.ls_files("--", relative).strip())

    def _identity(self) -> dict[str, str]:
        reader = self.repo.config_reader()
        name = reader.get_value("user", "name", default="") or settings().committer_name
        email = reader.get_value("user", "email", default="") or settings().committer_email
        return {
            "GIT_COMMITTER_NAME": name or FALLBACK_COMMITTER[0],
            "GIT_COMMITTER_EMAIL": email or FALLBACK_COMMITTER[1],
        }


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (in the main thread; elsewhere signals do not land)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {number: signal.signal(number, lambda n, _: arrived.append(n)) for number in INTERRUPTS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in arrived[:1]:
            handler = previous[number]
            if callable(handler):
                handler(number, None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), number)


def _mtime_ns(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return None


def _text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def _reason(error: BaseException) -> str:
    """Why a write failed, in one line: git busy, no permission, or the OS's words."""
    if isinstance(error, git.GitCommandError):
        stderr = str(error.stderr or "")
        if "index.lock" in stderr:
            return ("git is busy: .git/index.lock exists (another git command is running; "
                    "if none is, remove that file)")
        lines = [line.strip(" '\"") for line in stderr.splitlines() if line.strip(" '\"")]
        return (f"git {error.command[1] if len(error.command) > 1 else ''} failed: "
                f"{lines[-1] if lines else error.status}")
    if isinstance(error, PermissionError):
        where = Path(error.filename).parent if error.filename else "the store"
        return f"permission denied: cannot write in {where} (read-only?)"
    if isinstance(error, OSError):
        return f"{error.strerror or error}: {error.filename}" if error.filename else str(error.strerror or error)
    return str(error)


def _name(actor: str) -> str:
    """The actor as a git author name: no `<`, `>` or line breaks, which would let it forge the email."""
    return " ".join(actor.replace("<", " ").replace(">", " ").split()) or "someone"


def _email(actor: str) -> str:
    local = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in actor.lower()).strip("-") or "someone"
    return f"{local}@users.v3ast"


def git_user_name(folder: Path) -> str | None:
    """The git config user.name where `folder` lives, for attributing human decisions."""
    try:
        reader = git.Repo(folder, search_parent_directories=True).config_reader()
        return str(reader.get_value("user", "name", default="")) or None
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
