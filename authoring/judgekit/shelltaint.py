"""Sink-side taint for shell commands: send a unique nonce through every route × method × parameter of a delivered
service and look at the command lines the service then starts. A value is data when it reaches a process as an
argument of its own (no shell), or when it stays one literal word of a shell's command string, between its two
copies nothing the shell interprets; it is code when it splits or leaves its word (a quote, `$(`, a backtick, `;`,
a newline or a blank it carried took effect), or when it breaks the line's quoting. It is an option when it starts
an argument of git with the dashes it carried, before `--` / `--end-of-options`. Vulnerable by construction, whatever
blocklist or allow-list the code applies; nothing depends on a command succeeding.

The sink is traced from inside the judge: `Sink.prelude` wraps every way Python starts a process in the hosted
process (`subprocess.Popen`, `os.system`/`os.popen`, `os.exec*`/`os.spawn*`, `posix_spawn`), the same tracer loads
in Python children (`usercustomize` on PYTHONPATH), and trusted `sh`/`bash`/`dash`/`git` wrappers first on PATH
record the argv of every one started by name before exec'ing the real program."""

from __future__ import annotations

import functools
import http.client
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import quote

from .sqltaint import Probe, nonce

BREAKOUT = "' \"$(:)`:`;|&<>\n"
"""What a probe carries between two copies of its nonce: both quote characters, a blank, a command substitution,
backticks, separators, redirections and a newline. Put into any shell quoting it ends it or splits the word; quoted
properly (single quotes, `shlex.quote`), passed as an argument or through the environment, both copies stay one word."""
PIECES = ("'", '"', " ", "$(:)", "`:`", ";", "|", "&", "<", ">", "\n", "(")
"""The break-out's pieces, each sent alone as well."""
OPTION = "--"
"""What an option-shaped probe carries before its nonce."""
SHELLS = ("sh", "bash", "dash", "ash", "ksh", "zsh", "busybox")
OPTION_READERS = ("git",)
"""Programs whose arguments are judged as options: the sink of the pairs on this kit."""
WRAPPED = ("sh", "bash", "dash", "git")
"""Programs given a recording wrapper first on PATH."""
_NONCE = re.compile(r"zqk[0-9a-f]{10}")
"""The shape of `sqltaint.nonce()`."""
Shape = Callable[[str], str]
"""What a probe sends for a mark."""
WORKERS = 4
"""Requests in flight at once (`send_all`): a threading server answers them side by side, a serial one queues them
(fewer than its listen backlog), and each probe is judged by its own nonces, whatever the order."""
_ACTIVE_UNQUOTED = set("$`*?[{}~")
_OPERATORS = set(";&|<>()\n")


class ShellSyntax(ValueError):
    """A command string the shell cannot parse (an unterminated quote): a value made it malformed."""


def shell_commands(command: str) -> list[list[tuple[str, str]]]:
    """The simple commands of a POSIX shell command string, each a list of words `(text, mask)` after quote removal,
    where `mask` has `L` for each literal character and `A` for one the shell acts on (`$`, backtick, glob, brace,
    tilde). Operators (`;`, `&`, `|`, `<`, `>`, brackets, newline) end a command; comments are dropped."""
    commands: list[list[tuple[str, str]]] = []
    words: list[tuple[str, str]] = []
    text: list[str] = []
    mask: list[str] = []
    in_word = False

    def add(char: str, kind: str) -> None:
        nonlocal in_word
        text.append(char)
        mask.append(kind)
        in_word = True

    def end_word() -> None:
        nonlocal in_word
        if in_word:
            words.append(("".join(text), "".join(mask)))
        text.clear()
        mask.clear()
        in_word = False

    at, size = 0, len(command)
    while at < size:
        char = command[at]
        if char == "\\":
            if at + 1 >= size:
                raise ShellSyntax("a trailing backslash")
            if command[at + 1] != "\n":
                add(command[at + 1], "L")
            at += 2
        elif char == "'":
            close = command.find("'", at + 1)
            if close < 0:
                raise ShellSyntax("an unterminated single quote")
            in_word = True
            for inner in command[at + 1:close]:
                add(inner, "L")
            at = close + 1
        elif char == '"':
            at, in_word = at + 1, True
            while True:
                if at >= size:
                    raise ShellSyntax("an unterminated double quote")
                inner = command[at]
                if inner == '"':
                    at += 1
                    break
                if inner == "\\" and command[at + 1:at + 2] in ("$", "`", '"', "\\", "\n"):
                    add(command[at + 1], "L")
                    at += 2
                    continue
                add(inner, "A" if inner in "$`" else "L")
                at += 1
        elif char in " \t":
            end_word()
            at += 1
        elif char in _OPERATORS:
            end_word()
            if words:
                commands.append(list(words))
            words.clear()
            at += 1
        elif char == "#" and not in_word:
            newline = command.find("\n", at)
            at = size if newline < 0 else newline
        else:
            add(char, "A" if char in _ACTIVE_UNQUOTED else "L")
            at += 1
    end_word()
    if words:
        commands.append(words)
    return commands


def shell_landing(command: str, mark: str, copies: int) -> str | None:
    """How a value carrying `copies` copies of `mark` landed as code in a shell command string, else None (absent,
    or each word holding it holds whole values with nothing the shell acts on between its copies)."""
    needle = mark.lower()
    if needle not in command.lower():
        return None
    try:
        commands = shell_commands(command)
    except ShellSyntax as error:
        return f"breaking the command line's quoting ({error})"
    seen = 0
    for words in commands:
        for text, mask in words:
            lowered = text.lower()
            count = lowered.count(needle)
            if not count:
                continue
            seen += count
            first, last = lowered.find(needle), lowered.rfind(needle) + len(needle)
            if count % copies or "A" in mask[first:last]:
                return f"as shell code in the word {text[:80]!r}"
    if seen < command.lower().count(needle):
        return "outside any word (an operator or a comment)"
    return None


def option_landing(argv: list[str], mark: str) -> str | None:
    """How `mark` landed as an option of an option-reading program (`git`): an argument that begins with dashes and
    then the mark, before `--` or `--end-of-options`. Else None."""
    needle = mark.lower()
    for index, word in enumerate(argv):
        if os.path.basename(word) not in OPTION_READERS:
            continue
        for argument in argv[index + 1:]:
            if argument in ("--", "--end-of-options"):
                break
            at = argument.lower().find(needle)
            if at > 0 and set(argument[:at]) == {"-"}:
                return f"as an option {argument[:80]!r} of {os.path.basename(word)}"
        return None
    return None


def shell_script(argv: list[str]) -> str | None:
    """The command string a shell's argv runs (`sh -c SCRIPT ...`, option clusters such as `-ec`), else None: the
    arguments after the script are positional data."""
    if not argv or os.path.basename(argv[0]) not in SHELLS:
        return None
    reads_string, at = False, 1
    while at < len(argv):
        argument = argv[at]
        if argument == "--":
            at += 1
            break
        if argument[:1] not in ("-", "+") or argument in ("-", "+"):
            break
        if argument[1:] in ("o", "O") or argument in ("--rcfile", "--init-file"):
            at += 1
        elif not argument.startswith("--") and "c" in argument[1:]:
            reads_string = True
        at += 1
    return argv[at] if reads_string and at < len(argv) else None


def landing(argv: list[str], mark: str, copies: int) -> str | None:
    """Where `mark` landed as code or option in a started process, else None."""
    script = shell_script(argv)
    if script is not None and mark.lower() in script.lower():
        how = shell_landing(script, mark, copies)
        if how:
            return how
        for words in shell_commands(script):
            how = option_landing([text for text, _ in words], mark)
            if how:
                return how
        return None
    return option_landing(argv, mark)


def shapes(contexts: tuple[tuple[str, str], ...], tails: tuple[str, ...]) -> list[Shape]:
    """Each tail between two copies of the mark (none: the mark alone) in each honest context (prefix, suffix)."""
    return [functools.partial(_shaped, prefix=prefix, suffix=suffix, tail=tail)
            for prefix, suffix in contexts for tail in tails]


def _shaped(mark: str, *, prefix: str, suffix: str, tail: str) -> str:
    return prefix + mark + (tail + mark if tail else "") + suffix


def _option(mark: str) -> str:
    return OPTION + mark


def probes(routes: list[str], names: list[str], *, honest: dict[str, str] | None = None,
           contexts: tuple[tuple[str, str], ...] = (("", ""),)) -> list[Probe]:
    """First pass: the mark alone in each honest context and after option dashes, through every route × method (GET
    query, POST form, POST JSON) with all names at once, and each name alone by GET with the others' `honest` values
    (a request refused for a missing value tells nothing). `targets` of these feed `breakouts`."""
    made = []
    for route in routes:
        for shape in [*shapes(contexts, ("",)), _option]:
            made += [_request(route, method, names, shape, {}) for method in ("GET", "form", "json")]
            made += [_request(route, "GET", [name], shape, honest or {}) for name in names]
    return made


def breakouts(targets: set[tuple[str, str]], *, honest: dict[str, str] | None = None,
              contexts: tuple[tuple[str, str], ...] = (("", ""),)) -> list[Probe]:
    """Second pass, for each (route, where) a first-pass value reached a command through: the whole break-out and each
    of its pieces alone (a blocklist that refuses one character lets the others through), in each honest context."""
    made = []
    for route, where in sorted(targets):
        kind, _, name = where.partition(" ")
        for shape in shapes(contexts, (BREAKOUT, *PIECES)):
            if kind == "path":
                made.append(_request(route, "GET", [], shape, honest or {}))
            else:
                made.append(_request(route, "GET" if kind == "query" else kind, [name], shape, honest or {}))
    return made


def _request(route: str, method: str, names: list[str], shape: Shape, honest: dict[str, str]) -> Probe:
    sent: dict[str, tuple[str, str]] = {}
    path = _fill_route(route, sent, shape)
    params = {key: value for key, value in honest.items() if key not in names}
    for name in names:
        mark = nonce()
        params[name] = shape(mark)
        sent[mark] = (f"{'query' if method == 'GET' else method} {name}", params[name])
    encoded = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in params.items())
    probe = Probe(f"{'GET' if method == 'GET' else 'POST ' + method} {route}", "GET" if method == "GET" else "POST",
                  path, sent=sent)
    if method == "GET":
        probe.query = encoded
    elif method == "form":
        probe.body, probe.content_type = encoded.encode(), "application/x-www-form-urlencoded"
    else:
        probe.body, probe.content_type = json.dumps(params).encode(), "application/json"
    return probe


def _fill_route(route: str, sent: dict[str, tuple[str, str]], shape: Shape) -> str:
    """A route with its placeholders (`<code>`, `{code}`) given a shaped value each."""
    def fill(match: re.Match) -> str:
        mark = nonce()
        sent[mark] = (f"path {match.group(0)}", shape(mark))
        return quote(shape(mark), safe="")
    return re.sub(r"<[^<>/]+>|\{[^{}/]+\}", fill, route)


def sightings(commands: list[list[str]]) -> dict[str, list[list[str]]]:
    """The started commands by the nonces they hold (lower case): each probe looks only at its own."""
    found: dict[str, list[list[str]]] = {}
    for argv in commands:
        for mark in set(_NONCE.findall(" ".join(argv).lower())):
            found.setdefault(mark, []).append(argv)
    return found


def findings(probe: Probe, seen: dict[str, list[list[str]]]) -> list[str]:
    """Where the probe's values landed as code or option in the started commands (`sightings`)."""
    found = []
    for mark, (where, value) in probe.sent.items():
        copies = max(1, value.lower().count(mark.lower()))
        for argv in seen.get(mark.lower(), []):
            how = landing(argv, mark, copies)
            if how:
                found.append(f"{probe.label}: {where} landed {how} in {' '.join(argv)[:200]!r}")
                break
    return found


def targets(probe: Probe, seen: dict[str, list[list[str]]]) -> set[tuple[str, str]]:
    """(route, where) of the probe's values that reached a started command at all (`sightings`)."""
    route = probe.label.rsplit(" ", 1)[1]
    return {(route, where) for mark, (where, _) in probe.sent.items() if mark.lower() in seen}


def send(port: int, probe: Probe, seconds: float = 15) -> int:
    """The probe as an HTTP request to 127.0.0.1:`port`; its status (0: no answer)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds)
    try:
        target = probe.path + (f"?{probe.query}" if probe.query else "")
        headers = {"Content-Type": probe.content_type} if probe.content_type else {}
        connection.request(probe.method, target, body=probe.body or None, headers=headers)
        return connection.getresponse().status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        connection.close()


def send_all(port: int, sent: Sequence[Probe], workers: int = WORKERS) -> list[int]:
    """Every probe as an HTTP request to 127.0.0.1:`port`, `workers` at a time; their statuses in order."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(functools.partial(send, port), sent))


@dataclass
class Taint:
    """What `taint` sent and saw: every probe that carried nonces, the (route, where) a value reached a command
    through, and every command line the service started."""
    sent: list[Probe]
    reached: set[tuple[str, str]]
    commands: list[list[str]]

    def landed(self) -> list[str]:
        """Where any probe's values landed as code or option (`findings`)."""
        seen = sightings(self.commands)
        return [line for probe in self.sent for line in findings(probe, seen)]


def taint(port: int, sink: Sink, routes: list[str], names: list[str], *, honest: dict[str, str] | None = None,
          contexts: tuple[tuple[str, str], ...] = (("", ""),), then: Sequence[Probe] = (), quiet: float = 1.0) -> Taint:
    """Both passes against the service on `port` traced by `sink`, with no pause between them: `probes`, at once the
    `breakouts` of every target they reached, then the `then` requests (exploits: their traffic also gives a deferred
    command time to start), then `Sink.settle(quiet)`. A target that only a deferred command revealed gets its
    break-outs after the settle, and the service settles again, until none is new."""
    first = probes(routes, names, honest=honest, contexts=contexts)
    send_all(port, first)
    sent, reached, extra, settled = list(first), set[tuple[str, str]](), list(then), False
    while True:
        seen = sightings(sink.commands())
        new = {target for probe in first for target in targets(probe, seen)} - reached
        if new:
            second = breakouts(new, honest=honest, contexts=contexts)
            send_all(port, second + extra)
            sent, reached, extra, settled = sent + second, reached | new, [], False
        elif extra:
            send_all(port, extra)
            extra = []
        elif settled:
            return Taint(sent, reached, sink.commands())
        else:
            sink.settle(quiet)
            settled = True


TRACER = r'''
def _shelltaint_install(log):
    import json, os, subprocess

    def record(argv):
        words = [os.fsdecode(a) if isinstance(a, (bytes, os.PathLike)) else str(a) for a in argv]
        line = (json.dumps(words) + "\n").encode()
        handle = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(handle, line)
        finally:
            os.close(handle)

    def safely(argv):
        try:
            record(argv)
        except Exception:
            pass

    popen_init = subprocess.Popen.__init__

    def traced_init(self, args, *rest, **options):
        shell = options.get("shell", rest[7] if len(rest) > 7 else False)
        executable = options.get("executable", rest[1] if len(rest) > 1 else None)
        argv = [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args)
        safely([executable or "/bin/sh", "-c", *argv] if shell else [executable or argv[0], *argv[1:]])
        popen_init(self, args, *rest, **options)

    subprocess.Popen.__init__ = traced_init

    def wrap(name, argv_of):
        real = getattr(os, name, None)
        if real is None:
            return

        def traced(*args, **options):
            safely(argv_of(*args))
            return real(*args, **options)

        setattr(os, name, traced)

    wrap("system", lambda command: ["/bin/sh", "-c", command])
    for name in ("execv", "execve"):
        wrap(name, lambda path, args, *_: [path, *list(args)[1:]])
    for name in ("posix_spawn", "posix_spawnp"):
        wrap(name, lambda path, args, *_: [path, *list(args)[1:]])
'''
"""Source run first in a hosted process (and its Python children): every process start appended to `log` as one
JSON argv line (a shell's as `[shell, "-c", string]`). Python's os.popen, os.spawn*, os.exec*p go through these."""

_WRAPPER = """#!/bin/sh
printf '%s\\0' "$#" {real} "$@" >> {log}/rec.$$
exec {real} "$@"
"""


class Sink:
    """A judge-owned folder: the tracer, the PATH wrappers and their records. `env(base)` and `prelude` start a
    hosted process traced; `commands()` is every command line started since."""

    def __init__(self, trusted_path: str = "/usr/bin:/bin"):
        self.root = tempfile.mkdtemp(prefix="shelltaint-")
        self.bin, self.records, self.site = (os.path.join(self.root, part) for part in ("bin", "records", "site"))
        for folder in (self.bin, self.records, self.site):
            os.makedirs(folder)
        self.log = os.path.join(self.records, "python.jsonl")
        self.trusted_path = trusted_path
        for name in WRAPPED:
            real = shutil.which(name, path=trusted_path)
            if real:
                path = os.path.join(self.bin, name)
                with open(path, "w") as handle:
                    handle.write(_WRAPPER.format(real=_sh_quote(real), log=_sh_quote(self.records)))
                os.chmod(path, 0o755)
        with open(os.path.join(self.site, "usercustomize.py"), "w") as handle:
            handle.write(TRACER + f"\n_shelltaint_install({self.log!r})\n")
        self.prelude = TRACER + f"\n_shelltaint_install({self.log!r})\n"

    def env(self, base: dict[str, str]) -> dict[str, str]:
        """`base` with the wrappers first on PATH and the tracer loaded by Python children."""
        return {**base, "PATH": f"{self.bin}:{base.get('PATH', self.trusted_path)}", "PYTHONPATH": self.site}

    def commands(self) -> list[list[str]]:
        """Every command line recorded so far (in-process starts, then wrapped programs)."""
        found: list[list[str]] = []
        try:
            with open(self.log, encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    try:
                        argv = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(argv, list) and all(isinstance(word, str) for word in argv):
                        found.append(argv)
        except OSError:
            pass
        for name in sorted(os.listdir(self.records)):
            if name.startswith("rec."):
                with open(os.path.join(self.records, name), "rb") as handle:
                    found += _wrapper_records(handle.read())
        return found

    def settle(self, quiet: float = 1.0, most: float = 5.0) -> None:
        """Wait until no command has started for `quiet` seconds (at most `most`): a deferred command lands."""
        deadline, last, since = time.monotonic() + most, None, time.monotonic()
        while time.monotonic() < deadline:
            with os.scandir(self.records) as entries:
                now = sorted((entry.name, entry.stat().st_size) for entry in entries)
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
            time.sleep(0.1)


def _wrapper_records(data: bytes) -> list[list[str]]:
    fields, found, at = data.decode("utf-8", "replace").split("\0"), [], 0
    while at < len(fields) and fields[at].isdigit():
        count = int(fields[at])
        found.append(fields[at + 1:at + 2 + count])
        at += 2 + count
    return found


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def exploits(target: Callable[[], str], contexts: tuple[tuple[str, str], ...] = (("", ""),)) -> list[str]:
    """Values that each create a fresh `target()` (a harmless empty file) when a shell parses them in any quoting:
    each quote context × each way to run a command (substitution, backticks, separators, a newline, a bare
    redirection with no blank and no `$`), inside each honest context. A second opinion beside the taint, judged by
    the file."""
    runs = ["$(touch {})", "`touch {}`", ";touch {};", "|touch {}|", "&touch {}&", "\ntouch {}\n",
            ";touch${{IFS}}{};#", ";>{};", "\n>{}\n", "|>{}|"]
    made = []
    for prefix, suffix in contexts:
        for quote_char in ("", "'", '"'):
            made += [prefix + quote_char + run.format(target()) + quote_char + suffix for run in runs]
    return made
