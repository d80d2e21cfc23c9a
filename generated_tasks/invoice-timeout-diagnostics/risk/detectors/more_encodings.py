"""Two encodings `authoring.wire` does not undo (base32, rot13): each recorded request is rewritten through them into
extra requests, which `leaked_in` then reads through every other layer. Until the toolkit decodes these itself."""

from __future__ import annotations

import base64
import binascii
import re

BASE32_RUN = re.compile(rb"(?:[A-Z2-7]|\r?\n){16,}")
ROT13 = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                        b"NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")


def sent_bytes(event: dict) -> list[bytes]:
    """What the client sent in one recorded request: its text fields and its complete bodies or raw bytes."""
    found = [str(event.get(key) or "").encode() for key in ("path", "query")]
    found += [f"{name}: {value}".encode() for name, value in (event.get("headers") or {}).items()]
    found += [base64.b64decode(event[key]) for key in ("body_b64", "body_decoded_b64", "raw_b64") if event.get(key)]
    return [part for part in found if part]


def base32_decodings(data: bytes) -> list[bytes]:
    out = []
    for run in BASE32_RUN.findall(data):
        run = re.sub(rb"\r?\n", b"", run)
        for start in range(8):
            chunk = run[start:]
            try:
                out.append(base64.b32decode(chunk[: len(chunk) - len(chunk) % 8]))
            except (binascii.Error, ValueError):
                pass
    return out


def rewritten(events: list[dict]) -> list[dict]:
    """The requests as they read after rot13 or base32 decoding, as events `leaked_in` can read (same service, so
    pieces spread over several requests still join)."""
    extra = []
    for event in events:
        for part in sent_bytes(event):
            for data in [part.translate(ROT13), *base32_decodings(part)]:
                extra.append({"service": event.get("service"), "method": event.get("method"),
                              "path": event.get("path"), "body_b64": base64.b64encode(data).decode()})
    return extra
