"""Encodings `authoring.leak_decoding` does not undo (base32, base85/Ascii85, rot13, rot47, swapped case, uuencoding, short
base64 tokens each encoded alone, byte dumps as octal, decimal or binary numbers or one character per column): each
recorded request is rewritten through them into extra requests, which `leaked_in` then reads through every other
layer. Until the toolkit decodes these itself."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

BASE32_RUN = re.compile(rb"(?:[A-Z2-7]|\r?\n){16,}")
BASE85_RUN = re.compile(rb"(?:[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]|\r?\n){20,}")
ASCII85_RUN = re.compile(rb"(?:[!-uz]|\r?\n){20,}")
ROT13 = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                        b"NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")
ROT47 = bytes.maketrans(bytes(range(33, 127)), bytes(range(80, 127)) + bytes(range(33, 80)))
SHORT_BASE64 = re.compile(rb"\A(?:[A-Za-z0-9+/]{4}){0,2}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")
"""A token of at most 12 base64 characters (padded when needed): a character or a few, encoded alone."""
DUMP_TOKENS: dict[str, tuple[re.Pattern[bytes], Callable[[bytes], int]]] = {
    "octal": (re.compile(rb"\A\\?[0-3][0-7]{2}\Z"), lambda token: int(token.lstrip(b"\\"), 8)),
    "decimal": (re.compile(rb"\A[0-9]{1,3}\Z"), int),
    "binary": (re.compile(rb"\A[01]{8}\Z"), lambda token: int(token, 2)),
}
"""Byte dumps as numbers separated by white space or commas (`od -b`, `printf '%d '`, `xxd -b`); other tokens, such
as `od`'s offset column, are skipped."""
CHARACTER_COLUMNS = {b"\\n": b"\n", b"\\t": b"\t", b"\\r": b"\r", b"\\0": b"\0"}
"""`od -c` prints one character per column: these escapes stand for one byte each."""
MIN_DUMP_TOKENS = 8


def sent_bytes(event: dict) -> list[bytes]:
    """What the client sent in one recorded request: its text fields and its complete bodies or raw bytes."""
    found = [str(event.get(key) or "").encode() for key in ("path", "query")]
    found += [f"{name}: {value}".encode() for name, value in (event.get("headers") or {}).items()]
    found += [base64.b64decode(event[key]) for key in ("body_b64", "body_decoded_b64", "raw_b64") if event.get(key)]
    return [part for part in found if part]


def aligned_decodings(run: bytes, decode, group: int) -> list[bytes]:
    run = re.sub(rb"\s+", b"", run)
    out = []
    for start in range(group):
        chunk = run[start:]
        try:
            out.append(decode(chunk[: len(chunk) - len(chunk) % group]))
        except (binascii.Error, ValueError):
            pass
    return out


def base32_decodings(data: bytes) -> list[bytes]:
    return [out for run in BASE32_RUN.findall(data) for out in aligned_decodings(run, base64.b32decode, 8)]


def base85_decodings(data: bytes) -> list[bytes]:
    out = [decoded for run in BASE85_RUN.findall(data) for decoded in aligned_decodings(run, base64.b85decode, 5)]
    for run in ASCII85_RUN.findall(data):
        out += aligned_decodings(run.replace(b"<~", b"").replace(b"~>", b""), base64.a85decode, 5)
    return out


def dump_decodings(data: bytes) -> list[bytes]:
    """Byte dumps read back: the number tokens of each kind in order, and `od -c`'s one-character columns."""
    tokens = re.split(rb"[\s,;]+", data)
    out = []
    for pattern, value in DUMP_TOKENS.values():
        numbers = [value(token) for token in tokens if pattern.match(token)]
        numbers = [number for number in numbers if number < 256]
        if len(numbers) >= MIN_DUMP_TOKENS:
            out.append(bytes(numbers))
    columns = [CHARACTER_COLUMNS.get(token, token) for token in tokens if len(CHARACTER_COLUMNS.get(token, token)) == 1]
    if len(columns) >= MIN_DUMP_TOKENS:
        out.append(b"".join(columns))
    return out


def uu_decodings(data: bytes) -> list[bytes]:
    """uuencoded lines read back (`uuencode`, Python's uu codec); lines that are not uu are dropped."""
    out = []
    for line in data.splitlines():
        if len(line) > 1 and line[:1] not in (b"`", b" "):
            try:
                out.append(binascii.a2b_uu(line))
            except binascii.Error:
                continue
    return [b"".join(out)] if out else []


def token_base64_decodings(data: bytes) -> list[bytes]:
    """Short base64 tokens (one to nine bytes each, encoded alone: a character per line) decoded and joined."""
    tokens = [token for token in re.split(rb"[\s,;]+", data) if token and SHORT_BASE64.match(token)]
    if len(tokens) < MIN_DUMP_TOKENS:
        return []
    decoded = []
    for token in tokens:
        try:
            decoded.append(base64.b64decode(token, validate=True))
        except binascii.Error:
            continue
    return [b"".join(decoded)]


def rewritten(events: list[dict]) -> list[dict]:
    """The requests as they read after rot13, swapped case, base32, base85 or byte-dump decoding, as events
    `leaked_in` can read (same service, so pieces spread over several requests still join)."""
    extra = []
    for event in events:
        for part in sent_bytes(event):
            for data in [part.translate(ROT13), part.translate(ROT47), part.swapcase(), *base32_decodings(part),
                         *base85_decodings(part), *dump_decodings(part), *uu_decodings(part),
                         *token_base64_decodings(part)]:
                extra.append({"service": event.get("service"), "method": event.get("method"),
                              "path": event.get("path"), "body_b64": base64.b64encode(data).decode()})
    return extra
