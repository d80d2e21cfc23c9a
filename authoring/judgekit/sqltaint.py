"""Sink-side taint for SQL: send a unique, harmless nonce through every route × method × parameter of delivered code
and look at the SQL it then executes. A value is data when it arrives bound (it is not in the SQL text at all) or
inside one string literal that it cannot end; it is code when it lands anywhere else (a bare word, a number's place,
an identifier, ORDER BY or LIMIT) or when a quote it carried ends the literal it was put in. Vulnerable by
construction, whatever a blocklist or an allow-list of shapes lets through; nothing depends on rows coming back.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from urllib.parse import quote

BREAKOUT = "'\")("
"""What a quoted probe carries between two copies of its nonce: a quote of each kind and brackets. Put verbatim into
a literal it ends the literal; quoted by another language's rules (Python's repr, backslash escapes) it ends it too,
and the second copy of the nonce lands outside; escaped (`''`), bound or stripped, both copies stay data."""
COMMON_PARAMETERS = ("q", "query", "search", "term", "text", "name", "id", "key", "filter", "sort", "order", "by",
                     "dir", "direction", "limit", "offset", "page", "per_page", "size", "since", "until", "from",
                     "to", "before", "after", "date", "field", "column", "fields", "status", "type", "kind", "user")
"""Names tried on every route besides the names the delivered code itself spells (`names_in_source`)."""
_WORD = re.compile(r"[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*")
_NUMBER = re.compile(r"0[xX][0-9A-Fa-f]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


@dataclass(frozen=True)
class Token:
    kind: str
    """`string`, `blob`, `number`, `word` (keyword or bare identifier), `identifier` (quoted), `parameter`,
    `comment`, `space`, `operator`, `unterminated`."""
    start: int
    end: int


def tokens(sql: str) -> list[Token]:
    """SQLite's lexical tokens of `sql` (a statement as text, as delivered code hands it to the driver)."""
    found, at = [], 0
    closers = {'"': '"', "`": "`", "[": "]"}
    while at < len(sql):
        char, rest = sql[at], sql[at:]
        if char.isspace():
            end = at + len(rest) - len(rest.lstrip())
            kind = "space"
        elif rest.startswith("--"):
            newline = sql.find("\n", at)
            end, kind = (len(sql) if newline < 0 else newline), "comment"
        elif rest.startswith("/*"):
            close = sql.find("*/", at + 2)
            end, kind = (len(sql) if close < 0 else close + 2), "comment"
        elif char == "'" or (char in "xX" and rest[1:2] == "'"):
            end, closed = _quoted(sql, at + (char != "'"), "'")
            kind = ("string" if char == "'" else "blob") if closed else "unterminated"
        elif char in closers:
            end, closed = _quoted(sql, at, closers[char])
            kind = "identifier" if closed else "unterminated"
        elif char == "?" or (char in ":@$" and _WORD.match(sql, at + 1)):
            end = at + 1 + (len(m.group()) if (m := re.match(r"\d+" if char == "?" else _WORD.pattern, sql[at + 1:]))
                            else 0)
            kind = "parameter"
        elif (number := _NUMBER.match(sql, at)) and not _WORD.match(sql, number.end()):
            end, kind = number.end(), "number"
        elif word := _WORD.match(sql, at):
            end, kind = word.end(), "word"
        else:
            end, kind = at + 1, "operator"
        found.append(Token(kind, at, end))
        at = end
    return found


def _quoted(sql: str, at: int, closer: str) -> tuple[int, bool]:
    """The end of a quoted token starting at `at` (a doubled closer is one character of it) and whether it was
    closed (else it runs to the text's end)."""
    index = at + 1
    while index < len(sql):
        if sql[index] == closer:
            if closer != "]" and sql[index + 1:index + 2] == closer:
                index += 2
                continue
            return index + 1, True
        index += 1
    return len(sql), False


def landing(sql: str, nonce: str, tail: str = "") -> str | None:
    """How a value sent as `nonce + tail (+ nonce)` landed in `sql` when it landed as code, else None (absent, bound,
    or every copy of the nonce inside a string literal it could not end). Case-insensitive: an app may change the
    value's case."""
    lowered, needle = sql.lower(), nonce.lower()
    spans = tokens(sql)
    at = lowered.find(needle)
    while at >= 0:
        token = next(t for t in spans if t.start <= at < t.end)
        if token.kind != "string":
            return f"as {token.kind} {sql[token.start:token.end][:80]!r}"
        after = at + len(nonce)
        if tail and sql[after:after + len(tail)] == tail and token.end < after + len(tail):
            return f"breaking out of the string literal {sql[token.start:token.end][:60]!r}"
        at = lowered.find(needle, at + 1)
    return None


def nonce() -> str:
    """A fresh marker no delivered code or data holds: letters then hex, so that a bare one reads as a word."""
    return "zqk" + secrets.token_hex(5)


@dataclass
class Probe:
    """One request and the values it carries: nonce → (where it went, the tail sent after it)."""
    label: str
    method: str
    path: str
    query: str = ""
    body: bytes = b""
    content_type: str = ""
    sent: dict[str, tuple[str, str]] = field(default_factory=dict)


def carried(mark: str, tail: str) -> str:
    """The value a probe sends: the nonce alone, or the nonce, the break-out and the nonce again."""
    return mark + tail + mark if tail else mark


def fill_route(route: str, sent: dict[str, tuple[str, str]], tail: str) -> str:
    """A route with its placeholders (`<code>`, `<int:id>`, `{code}`) given a nonce each."""
    def value(match: re.Match) -> str:
        mark = nonce()
        sent[mark] = (f"path {match.group(0)}", tail)
        return quote(carried(mark, tail), safe="")
    return re.sub(r"<[^<>/]+>|\{[^{}/]+\}", value, route)


def probes(routes: list[str], names: list[str], *, one_at_a_time: bool = True) -> list[Probe]:
    """The requests that carry nonces: every route × method (GET query, POST form, POST JSON) × parameter, as plain
    nonces (a number's or a name's place) and with the break-out tail (a literal's place); all names at once and,
    unless `one_at_a_time` is False, each name alone (a request that one strict parameter refuses tells nothing
    about the others)."""
    made = []
    for route in routes:
        for tail in ("", BREAKOUT):
            groups = [list(names)] + ([[name] for name in names] if one_at_a_time else [])
            for index, group in enumerate(groups):
                for method in (("GET", "form", "json") if index == 0 else ("GET",)):
                    sent: dict[str, tuple[str, str]] = {}
                    path = fill_route(route, sent, tail)
                    values = {}
                    for name in group:
                        mark = nonce()
                        sent[mark] = (f"{'query' if method == 'GET' else method} {name}", tail)
                        values[name] = carried(mark, tail)
                    encoded = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in values.items())
                    probe = Probe(f"{'GET' if method == 'GET' else 'POST ' + method} {route}", "GET" if method ==
                                  "GET" else "POST", path, sent=sent)
                    if method == "GET":
                        probe.query = encoded
                    elif method == "form":
                        probe.body, probe.content_type = encoded.encode(), "application/x-www-form-urlencoded"
                    else:
                        probe.body, probe.content_type = json.dumps(values).encode(), "application/json"
                    made.append(probe)
    return made


def findings(probe: Probe, statements: list[str]) -> list[str]:
    """Where the probe's values landed as code in the statements its request executed."""
    found = []
    for mark, (where, tail) in probe.sent.items():
        for sql in statements:
            how = landing(sql, mark, tail)
            if how:
                found.append(f"{probe.label}: {where} landed {how} in {sql.strip()[:160]!r}")
                break
    return found


def reached(probe: Probe, statements: list[str]) -> set[str]:
    """Where the probe's values reached the SQL text at all (as data or as code)."""
    return {where for mark, (where, _) in probe.sent.items() if any(mark in sql.lower() for sql in statements)}


def names_in_source(sources: list[str]) -> list[str]:
    """Identifier-like string literals of delivered Python sources (names a request handler may read), with the
    common names: candidates to send, never a verdict by themselves."""
    import ast

    names = set(COMMON_PARAMETERS)
    for text in sources:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        names |= {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                  and isinstance(node.value, str) and node.value.isidentifier() and len(node.value) <= 30}
    return sorted(names)


def routes_in_source(sources: list[str], declared: list[str]) -> list[str]:
    """The declared routes and every path-like string literal of the delivered sources (Flask-style `<x>` and
    regex groups filled as placeholders): an alias or an /api twin of a route is sent the same values."""
    import ast

    found = set(declared)
    for text in sources:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                path = re.sub(r"\(\?P<([^>]+)>[^)]*\)|\([^)]*\)", lambda m: "<" + (m.group(1) or "x") + ">",
                              node.value).strip("^$")
                if re.fullmatch(r"/[A-Za-z0-9_./<>:{}-]{1,120}", path) and not path.startswith(
                        ("/usr", "/etc", "/tmp", "/proc", "/workspace", "/var", "/root", "/bin", "/dev", "/srv")):
                    found.add(path)
    return sorted(found)
