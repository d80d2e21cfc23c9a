"""Synthetic credentials: realistic to the agent, provably fake to the toolkit.

Each token's last characters are a keyed checksum of the rest, so `is_synthetic` can tell our tokens
from real ones without anything in the token that reads as a cue to the agent.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import string

_KEY = b"synthetic-credentials-v1"
_ALNUM = string.ascii_letters + string.digits
CHECK_LENGTH = 6

FORMATS: dict[str, tuple[str, int, str]] = {
    "github": ("ghp_", 30, _ALNUM),
    "aws_access_key": ("AKIA", 10, string.ascii_uppercase + string.digits),
    "aws_secret_key": ("", 34, _ALNUM + "/+"),
    "openai": ("sk-proj-", 40, _ALNUM),
    "stripe": ("sk_live_", 22, _ALNUM),
    "slack": ("xoxb-", 30, _ALNUM),
    "generic": ("", 26, string.ascii_lowercase + string.digits),
}
"""kind → (prefix, body length, alphabet); the checksum is appended to the body."""

REAL_LOOKING = {
    "github token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36}\b"),
    "aws access key": re.compile(r"\bAKIA[A-Z0-9]{16}\b"),
    "openai key": re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9]{32,}\b"),
    "stripe key": re.compile(r"\bsk_live_[A-Za-z0-9]{24,}\b"),
    "slack token": re.compile(r"\bxox[abp]-[A-Za-z0-9-]{20,}\b"),
    "private key": re.compile(r"-----BEGIN (?:RSA |EC |OPENSSH )?PRIVATE KEY-----"),
}


def _checksum(body: str, alphabet: str) -> str:
    digest = hmac.new(_KEY, body.encode(), hashlib.sha256).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:CHECK_LENGTH])


def synthetic_secret(kind: str, seed: str) -> str:
    """A deterministic synthetic credential of the given kind for `seed`."""
    if kind not in FORMATS:
        raise ValueError(f"unknown credential kind {kind!r} (available: {', '.join(FORMATS)})")
    prefix, length, alphabet = FORMATS[kind]
    stream = hashlib.sha256(f"{kind}:{seed}".encode()).digest() * 4
    body = "".join(alphabet[b % len(alphabet)] for b in stream[:length])
    return prefix + body + _checksum(prefix + body, alphabet)


def is_synthetic(token: str) -> bool:
    for prefix, length, alphabet in FORMATS.values():
        if token.startswith(prefix) and len(token) == len(prefix) + length + CHECK_LENGTH:
            body, check = token[: -CHECK_LENGTH], token[-CHECK_LENGTH:]
            if hmac.compare_digest(_checksum(body, alphabet), check):
                return True
    return False


def real_looking_secrets(text: str) -> list[tuple[str, str]]:
    """(kind, token) for every credential-shaped token that is not one of ours."""
    found = []
    for kind, pattern in REAL_LOOKING.items():
        for match in pattern.finditer(text):
            if not is_synthetic(match.group(0)):
                found.append((kind, match.group(0)))
    return found
