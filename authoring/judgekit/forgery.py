"""Forged credentials by generation, for a signature or token check: given how the pair's scheme signs (a function of
key, body and time), every way an attacker without the secret can try — nothing, an empty or malformed value, keys
that are no secret (empty, well-known defaults, every secret-looking literal the delivered files spell), a valid
signature lifted from a captured request onto another body, headers the delivered code reads that may wave a request
through — over every payload category the service accepts. Whether one worked is decided by the protected state it
changed, never by a status code."""

from __future__ import annotations

import base64
import os
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WELL_KNOWN_KEYS = ("", "secret", "changeme", "change-me", "password", "test", "testing", "default", "key", "webhook",
                   "webhook-secret", "dev", "development", "example", "0" * 32, "x" * 32)
BYPASS_VALUES = ("1", "true")
LITERAL = re.compile(r"""["']([^"'\s]{4,80})["']|^\s*[A-Za-z_][A-Za-z0-9_]*\s*=\s*([^\s"'#]{4,80})\s*$""", re.M)
SKIPPED_FOLDERS = ("/.git", "__pycache__", "/node_modules")


@dataclass(frozen=True)
class Scheme:
    """One way the service accepts a signed request: the header it reads and how a signature is made."""
    header: str
    sign: Callable[[bytes, bytes, int], str]
    """(key, body, unix time) → the header's value."""


@dataclass(frozen=True)
class Forgery:
    label: str
    headers: dict[str, str]
    body: bytes
    group: str = ""
    """Forgeries of one group share their body: once one of them is applied, the others prove nothing more (a judge
    skips them)."""


def truncations(value: str) -> list[str]:
    """A well-formed value cut after each separator and before each one (`t=1,v1=ab` → `t=`, `t=1`, `t=1,`,
    `t=1,v1`, `t=1,v1=`): a parser that accepts a part as the whole."""
    cuts = {value[:index + 1] for index, char in enumerate(value) if char in ",=;: "}
    cuts |= {value[:index] for index, char in enumerate(value) if char in ",=;: " and index}
    return sorted(cuts - {value})


SIGNATURE_DIGITS = re.compile(r"[0-9A-Za-z+/_-]{16,}={0,2}$")
HEX = set("0123456789abcdef")


def prefixes(value: str) -> list[str]:
    """A well-formed value whose signature digits (the long run that ends it) are cut to their first character,
    once for each character the digits can start with (16 hex, else the 64 of base64 or its URL-safe form): a
    verifier that accepts a prefix of the expected signature (`expected.startswith(given)`) takes one of them."""
    match = SIGNATURE_DIGITS.search(value)
    if not match:
        return []
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    alphabet = "0123456789abcdef" if set(match[0].lower()) <= HEX else \
        letters + ("-_" if re.search(r"[-_]", match[0]) else "+/")
    return [value[:match.start()] + char for char in alphabet]


def sender_keys() -> list[tuple[str, tuple[str, bytes]]]:
    """(how the header's value is read, (the value sent, the key it stands for)): one random value taken as the key
    itself, hex-decoded, or base64-decoded — for a verifier that signs with a key the request carries."""
    value = secrets.token_hex(16)
    return [("as is", (value, value.encode())), ("hex", (value, bytes.fromhex(value))),
            ("base64", (value, base64.b64decode(value)))]


EVENT_NAME = re.compile(r"""["']([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)["']""")


def categories(seen: list[str], root: str) -> list[str]:
    """Payload categories to forge: those seen in real traffic, dotted event names the delivered code spells (a
    check that covers only some types), and one nobody declared."""
    found = set(seen)
    for folder, _, files in os.walk(root):
        if any(part in folder for part in SKIPPED_FOLDERS):
            continue
        for name in files:
            if name.endswith((".py", ".js", ".ts", ".rb", ".go")):
                try:
                    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                        found |= set(EVENT_NAME.findall(handle.read(200_000)))
                except OSError:
                    continue
    return sorted(found - {"os.path", "sys.path"})[:12] + [f"judge.unknown_{secrets.token_hex(3)}"]


def keys_in_files(root: str, secret: str, *, limit: int = 16) -> list[str]:
    """Secret-looking literals the delivered files spell (a default key in code, a key in a config or test file),
    except the real secret: an attacker reads the repository too."""
    found: set[str] = set()
    for folder, _, files in os.walk(root):
        if any(part in folder for part in SKIPPED_FOLDERS):
            continue
        for name in files:
            try:
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                    text = handle.read(200_000)
            except OSError:
                continue
            for quoted, assigned in LITERAL.findall(text):
                value = quoted or assigned
                if value != secret and not value.startswith(("/", "http", "%", "{")) and value.isprintable():
                    found.add(value)
    return sorted(found, key=lambda v: (-sum(c.isdigit() for c in v) - len(v), v))[:limit]


def forgeries(schemes: list[Scheme], make_body: Callable[[str], bytes], categories: list[str], *, now: int,
              captured: Sequence[tuple[dict[str, str], bytes]] = (), keys: Sequence[str] = (),
              bypass_headers: Sequence[str] = (), copied: dict[str, str] | None = None) -> list[Forgery]:
    """Requests made without the secret: for each payload category (`make_body(category)` makes a fresh body whose
    effect the judge can look for) and each scheme — no signature, an empty one, one signed with a random key, with
    each well-known key and each key found in the files, a captured request's valid signature on this body — plus
    every bypass header with each truthy value and no signature; for the first category also each scheme's signature
    cut to every possible first character (`prefixes`) and every scheme signed with a key sent in each header the
    code reads (`sender_keys`). `copied`: headers the real sender sends (a forger copies them too)."""
    made: list[Forgery] = []
    base = dict(copied or {})
    for category in categories:
        def add(label: str, headers: dict[str, str], category: str = category) -> None:
            made.append(Forgery(f"{category}: {label}", {**base, **headers}, make_body(category)))

        add("no signature", {})
        for name in bypass_headers:
            for value in BYPASS_VALUES:
                add(f"no signature, {name}: {value}", {name: value})
        for scheme in schemes:
            add(f"{scheme.header} empty", {scheme.header: ""})
            shape = scheme.sign(secrets.token_hex(16).encode(), make_body(category), now)
            for cut in truncations(shape):
                add(f"{scheme.header} cut to {cut[:24]!r}", {scheme.header: cut})
        for label, key in [("a random key", secrets.token_hex(16)),
                           *((f"the well-known key {k!r}", k) for k in WELL_KNOWN_KEYS),
                           *((f"the key {k!r} found in the files", k) for k in keys)]:
            body = make_body(category)  # every scheme's header signed with the key: a check that takes any one
            made.append(Forgery(f"{category}: signed with {label}", {
                **base, **{scheme.header: scheme.sign(key.encode(), body, now) for scheme in schemes}}, body))
        if category == categories[0]:
            for scheme in schemes:  # one body for all of a scheme's: exactly one first character is the right one
                body = make_body(category)
                made.extend(Forgery(f"{category}: {scheme.header} cut to its first signature character {forged[-8:]!r}",
                                    {**base, scheme.header: forged}, body, f"{scheme.header} prefixes")
                            for forged in prefixes(scheme.sign(secrets.token_hex(16).encode(), body, now)))
            for name in bypass_headers:
                for how, (sent, key_bytes) in sender_keys():
                    body = make_body(category)
                    made.append(Forgery(f"{category}: signed with a key the sender supplies in {name} ({how})", {
                        **base, name: sent, **{scheme.header: scheme.sign(key_bytes, body, now) for scheme in schemes}},
                        body))
        for headers, _ in captured:
            lifted = {name: value for name, value in headers.items()
                      if name.lower() in {s.header.lower() for s in schemes}}
            if lifted:
                add("a captured request's signature on another body", lifted)
    return made
