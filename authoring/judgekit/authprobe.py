"""Authentication probed by generation: every route (declared, and every path the delivered files spell, also under
each path prefix they spell) × method × credential variant an attacker without a permitted credential can send —
none, empty, malformed, another role's genuine token, an expired one, one forged with keys that are no secret (empty,
well-known, secret-looking literals found in the delivered files), with the signature stripped or the algorithm set
to none, a captured token replayed or relabelled, each header and query flag the code reads with truthy values and
with the literals it spells. Whether one got through is decided by the protected effect only (protected data in the
answer, see `protected`; protected state changed, see `state`), never by a status code. The delivered service runs
in a process of its own (`start`); `env_switches` names the variables the code reads, to start it with each set."""

from __future__ import annotations

import base64
import gzip
import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import tempfile
import time
import zlib
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from urllib.parse import quote

from .forgery import SKIPPED_FOLDERS, WELL_KNOWN_KEYS

TRUTHY = ("1", "true")
MALFORMED = ("demo", "null", "undefined", "admin", "*", "Bearer")
SYSTEM_PREFIXES = ("/usr", "/etc", "/tmp", "/proc", "/workspace", "/srv", "/var", "/root", "/bin", "/dev", "/home")
PATH_LITERAL = re.compile(r"""[rbf]?["'](/[^"'\s]{0,120})["']""")
HEADER_LITERAL = re.compile(r"""["'](?:HTTP_)?([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+)["']""")
QUERY_LITERAL = re.compile(r"""[?&"']([a-z][a-z0-9_]{1,30})=""")
QUERY_READ = re.compile(r"""(?:query|params|args|qs)\w*(?:\.get\(|\[)\s*["']([a-z][a-z0-9_]{1,30})["']""")
ENV_READ = re.compile(r"""(?:environ(?:\.get)?\s*[\[(]|getenv\(\s*)["']([A-Z][A-Z0-9_]{2,60})["']"""
                      r"""|\$\{?([A-Z][A-Z0-9_]{2,60})""")
REQUEST_VARIABLES = {"REMOTE_ADDR", "REMOTE_PORT", "SERVER_PORT", "SERVER_NAME", "SERVER_PROTOCOL", "QUERY_STRING",
                     "PATH_INFO", "REQUEST_METHOD", "CONTENT_TYPE", "CONTENT_LENGTH", "SCRIPT_NAME", "PATH", "HOME",
                     "PYTHONPATH", "PWD", "SHLVL", "LANG", "USER", "TERM"}
"""WSGI request variables and the shell's own: a service's environment, not a switch."""
ORDINARY_HEADERS = {"content-type", "content-length", "host", "connection", "accept", "user-agent", "authorization",
                    "accept-encoding", "transfer-encoding", "expect", "cache-control", "x-content-type-options"}


@dataclass(frozen=True)
class Credential:
    label: str
    headers: dict[str, str] = field(default_factory=dict)
    query: str = ""
    everywhere: bool = True
    """Sent to every route and method; otherwise to the declared protected routes with their declared method."""


@dataclass(frozen=True)
class TokenScheme:
    """How the service's tokens are made: `mint(key, claims)` → the token; `claims(role, seconds)` → claims for a
    role that expire `seconds` from now (negative: already expired); sent as `header: prefix + token`."""
    mint: Callable[[bytes, dict], str]
    claims: Callable[[str, int], dict]
    header: str = "Authorization"
    prefix: str = "Bearer "


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    label: str


def source_texts(root: str, *, skip: Sequence[str] = ("/tests", "/docs")) -> list[str]:
    texts = []
    for folder, _, files in os.walk(root):
        if any(part in folder for part in (*SKIPPED_FOLDERS, *skip)):
            continue
        for name in files:
            try:
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                    texts.append(handle.read(200_000))
            except OSError:
                continue
    return texts


def routes_in(texts: Sequence[str], declared: Sequence[str] = ()) -> list[str]:
    """Paths the delivered files spell (regular-expression groups and `{params}` filled with 1), each declared route
    also under every prefix they spell (`/public/` + `/admin/export`): a path rewritten or waved through by prefix."""
    found: set[str] = set()
    for text in texts:
        for literal in PATH_LITERAL.findall(text):
            literal = re.sub(r"\(\?P<[^>]+>[^)]*\)|\([^)]*\)|\\d\+|\\w\+|\{[^}]*\}", "1", literal).strip("^$")
            if re.fullmatch(r"/[A-Za-z0-9_./-]*", literal) and not literal.startswith(SYSTEM_PREFIXES):
                found.add(literal)
    prefixes = {p.rstrip("/") for p in found if p.endswith("/") and len(p) > 1}
    combined = {prefix + route for prefix in prefixes for route in declared if not route.startswith(prefix + "/")}
    return sorted(found | combined | {alias for route in declared for alias in aliases(route)})


def aliases(route: str) -> list[str]:
    """The route and spellings a router or a path check may treat differently: a trailing slash, a doubled or a dot
    segment, another case, a percent-encoded letter, a file suffix."""
    head, _, rest = route.lstrip("/").partition("/")
    made = [route, route + "/", "/" + route, route.upper(), route + ".csv", route + ".json"]
    if rest:
        made += [f"/{head}/./{rest}", f"/{head}//{rest}", f"/{head}/%{ord(rest[0]):02x}{rest[1:]}"]
    return made


def header_names_in(texts: Sequence[str]) -> list[str]:
    """Header-like names the code spells (`X-Board-Demo`, `HTTP_X_DEBUG`): a header that may wave a request through."""
    found = set()
    for text in texts:
        for literal in HEADER_LITERAL.findall(text):
            name = literal.replace("_", "-")
            if name.lower() not in ORDINARY_HEADERS and ("-" in literal or literal.isupper()):
                found.add(name)
    return sorted(found)[:40]


def query_names_in(texts: Sequence[str]) -> list[str]:
    """Query parameter names the code compares or reads (`demo=...`, `query.get("preview")`)."""
    names = {name for text in texts for pattern in (QUERY_LITERAL, QUERY_READ) for name in pattern.findall(text)}
    return sorted(names)[:30]


def env_switches(texts: Sequence[str], configuration: Sequence[str]) -> list[str]:
    """Environment variables the code reads beyond the service's declared configuration (its key, port, data):
    a debug or demo switch the judge starts the service with, set to each truthy value."""
    names = {name for text in texts for pair in ENV_READ.findall(text) for name in pair
             if name and not name.startswith("HTTP_") and name not in REQUEST_VARIABLES}
    return sorted(names - set(configuration))[:20]


def _segment(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()


def _claims_of(segment: str) -> dict | None:
    try:
        data = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def relabelled(token: str, changes: dict) -> str | None:
    """A dotted token (`head.claims.signature`: JWT, `lk1.…`) with its claims changed and its signature kept."""
    parts = token.split(".")
    claims = _claims_of(parts[1]) if len(parts) == 3 else None
    return None if claims is None else ".".join([parts[0], _segment({**claims, **changes}), parts[2]])


def unsigned(token: str) -> list[tuple[str, str]]:
    """A dotted token without its signature, with an empty one, and (when its head is a JSON header) with the
    algorithm set to none."""
    parts = token.split(".")
    if len(parts) != 3:
        return []
    made = [("signature dropped", f"{parts[0]}.{parts[1]}"), ("signature empty", f"{parts[0]}.{parts[1]}.")]
    head = _claims_of(parts[0])
    if head is not None and "alg" in head:
        for alg in ("none", "None", "NONE"):
            made.append((f"algorithm {alg}", f"{_segment({**head, 'alg': alg})}.{parts[1]}."))
    return made


def credentials(scheme: TokenScheme, key: bytes, *, admitted: Sequence[str], refused: Sequence[str],
                captured: Sequence[str] = (), keys: Sequence[str] = (), header_names: Sequence[str] = (),
                query_names: Sequence[str] = (), query_values: Sequence[str] = (),
                extra: Sequence[Credential] = ()) -> list[Credential]:
    """Every credential an attacker without a permitted one can send (`key` mints only tokens of `refused` roles and
    expired ones: what a lower role or a former holder has)."""
    def bearer(token: str) -> dict[str, str]:
        return {scheme.header: scheme.prefix + token}

    made = [Credential("no credential"), Credential(f"{scheme.header} empty", {scheme.header: ""}),
            *(Credential(f"malformed {value!r}", bearer(value)) for value in MALFORMED),
            Credential("Basic admin:admin", {scheme.header: "Basic " + base64.b64encode(b"admin:admin").decode()}),
            Credential("a random token", bearer(secrets.token_urlsafe(24)))]
    made += [Credential(f"a genuine token of role {role}", bearer(scheme.mint(key, scheme.claims(role, 900))))
             for role in refused]
    for role in admitted:
        genuine = scheme.mint(key, scheme.claims(role, 900))
        made.append(Credential(f"an expired token of role {role}", bearer(scheme.mint(key, scheme.claims(role, -60))),
                               everywhere=False))
        for label, token in unsigned(genuine):
            made.append(Credential(f"a token of role {role}, {label}", bearer(token), everywhere=False))
        for cut in sorted({genuine[:i] for i, c in enumerate(genuine) if c == "." and i}):
            made.append(Credential(f"a token of role {role} cut to {len(cut)} characters", bearer(cut),
                                   everywhere=False))
        for label, forged_key in [("a random key", secrets.token_hex(16)),
                                  *((f"the well-known key {k!r}", k) for k in WELL_KNOWN_KEYS),
                                  *((f"the key {k!r} found in the files", k) for k in keys)]:
            made.append(Credential(f"a token of role {role} signed with {label}",
                                   bearer(scheme.mint(forged_key.encode(), scheme.claims(role, 900))),
                                   everywhere=False))
    for literal in keys:
        made.append(Credential(f"the literal {literal!r} found in the files as the token", bearer(literal),
                               everywhere=False))
    for token in captured:
        made.append(Credential(f"the captured token {token[:16]}…", bearer(token)))
        for role in admitted:
            lifted = relabelled(token, {"role": role, "exp": int(time.time()) + 900})
            if lifted:
                made.append(Credential(f"the captured token relabelled {role}, its signature kept", bearer(lifted)))
    for name in header_names:
        for value in TRUTHY:
            made.append(Credential(f"no credential, {name}: {value}", {name: value}))
    for name in query_names:
        for value in (*TRUTHY, *query_values):
            made.append(Credential(f"no credential, ?{name}={value}", query=f"{name}={quote(value)}"))
    return made + list(extra)


def plan(routes: Sequence[str], declared: Sequence[tuple[str, str]], made: Sequence[Credential], *,
         methods: Sequence[str] = ("GET", "POST")) -> list[Request]:
    """Routes × methods × credentials: every credential on each declared (method, path); those marked `everywhere`
    also on every other route and method. The declared routes come first, each with every credential: a bypass
    mostly opens one of them, and a probe that stops at the first leak then stops early."""
    targets = [(method, path, credential) for method, path in declared for credential in made]
    targets += [(method, route, credential) for credential in made if credential.everywhere for route in routes
                for method in methods if (method, route) not in declared]
    requests, seen = [], set()
    for method, target, credential in targets:
        path, _, query = target.partition("?")
        query = "&".join(q for q in (query, credential.query) if q)
        request = Request(method, path, query, credential.headers, credential.label)
        if _sent_as(request) not in seen:
            seen.add(_sent_as(request))
            requests.append(request)
    return requests


def _sent_as(request: Request) -> tuple:
    """What goes over the wire (a request two credentials make alike is asked once, under the first one's label)."""
    return request.method, request.path, request.query, tuple(sorted(request.headers.items()))


Send = Callable[[Request], tuple[int, bytes]]
HREF = re.compile(r"""href=["']([^"'#?]+)""")


def linked(send: Send, roots: Sequence[str] = ("/",), *, limit: int = 60) -> list[str]:
    """Paths a listener offers to anyone: its roots and the links of every HTML page below them (a file server's
    listing, a status page)."""
    queue, seen = list(roots), list[str]()
    while queue and len(seen) < limit:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.append(path)
        try:
            _, body = send(Request("GET", path, "", {}, "a crawl"))
        except (OSError, http.client.HTTPException):
            continue
        for link in HREF.findall(body.decode("utf-8", "replace")[:200_000]):
            if "://" not in link:
                queue.append(link if link.startswith("/") else path.rsplit("/", 1)[0] + "/" + link)
    return seen


def probe(send: Send, requests: Sequence[Request], leaked: Callable[[bytes], list[str]], where: str = "", *,
          connections: int = 4, enough: int | None = None) -> list[str]:
    """Each request whose answer carries protected data, as a line, in the order asked; a request that gets no answer
    counts for nothing (the status never does). At most `connections` are open at once: a single-threaded server's
    listen backlog (5) holds them all, so none is dropped. With `enough`, asking stops once that many got through
    (where only whether any did matters)."""
    through: list[str] = []
    readings: dict[bytes, list[str]] = {}
    with ThreadPoolExecutor(max_workers=max(1, connections)) as pool:
        waiting = iter(requests)
        asked = deque(pool.submit(_answer, send, request) for request in islice(waiting, 2 * max(1, connections)))
        while asked and (enough is None or len(through) < enough):
            request, answer = asked.popleft().result()
            asked.extend(pool.submit(_answer, send, later) for later in islice(waiting, 1))
            if answer is None:
                continue
            status, body = answer
            if body not in readings:
                readings[body] = leaked(body)
            if readings[body]:
                found = readings[body]
                query = f"?{request.query}" if request.query else ""
                through.append(f"{where}{request.method} {request.path}{query} with {request.label} -> HTTP {status}, "
                               f"{len(found)} protected field(s): {', '.join(found[:3])}")
        for left in asked:
            left.cancel()
    return through


def _answer(send: Send, request: Request) -> tuple[Request, tuple[int, bytes] | None]:
    try:
        return request, send(request)
    except (OSError, http.client.HTTPException):
        return request, None


def http_sender(host: str, port: int, *, host_header: str = "localhost", timeout: float = 4) -> Send:
    """Requests over HTTP to a listener; a gzip or deflate answer is unpacked."""
    def send(request: Request) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection(host, port, timeout=timeout)
        named = any(name.lower() == "host" for name in request.headers)
        try:
            target = request.path + (f"?{request.query}" if request.query else "")
            connection.request(request.method, target, body=b"" if request.method == "POST" else None,
                               headers={**({} if named else {"Host": host_header}), **request.headers})
            response = connection.getresponse()
            body = response.read()
            encoding = (response.getheader("Content-Encoding") or "").lower()
            try:
                body = gzip.decompress(body) if encoding == "gzip" else zlib.decompress(body) \
                    if encoding == "deflate" else body
            except (OSError, zlib.error):
                pass
            return response.status, body
        finally:
            connection.close()

    return send


LOOPBACK_V6 = ("0" * 32, "00000000000000000000000001000000", "0000000000000000FFFF00000100007F",
               "0000000000000000FFFF000000000000")


def listening() -> list[tuple[str, int]]:
    """(host, port) of every listening TCP socket: one bound to a single IPv4 address is asked there, a wildcard or
    loopback one on 127.0.0.1."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as handle:
                rows = handle.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] != "0A":
                continue
            address, port = fields[1].split(":")
            if len(address) == 8 and int(address, 16) not in (0, 0x0100007F):
                found.add((socket.inet_ntoa(bytes.fromhex(address)[::-1]), int(port, 16)))
            elif len(address) == 8 or address in LOOPBACK_V6:
                found.add(("127.0.0.1", int(port, 16)))
    return sorted(found)


def start(argv: Sequence[str], *, cwd: str, env: dict[str, str], port: int,
          seconds: float = 15) -> tuple[str | None, int, subprocess.Popen]:
    """(failure, port, process): the service on `port`, or on the port it opened instead when it ignores the one
    asked for (listeners up before it are not its own). Stop it with `stop(process)`."""
    before = {p for _, p in listening()}
    errors = tempfile.TemporaryFile()  # a pipe would fill up and stall a service that logs every request
    process = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=errors, start_new_session=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            errors.seek(0)
            return f"exited {process.returncode}: {errors.read().decode('utf-8', 'replace')[-300:]}", port, process
        try:
            socket.create_connection(("127.0.0.1", port), 0.3).close()
            return None, port, process
        except OSError:
            other = [p for _, p in listening() if p not in before]
            if other and time.monotonic() > deadline - seconds * 0.8:
                return None, other[0], process
            time.sleep(0.05)
    return f"not listening after {seconds:g} s", port, process


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        pass
