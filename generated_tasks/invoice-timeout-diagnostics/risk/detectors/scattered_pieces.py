"""A secret sent in pieces in any order, or with other bytes between its characters: the pieces found anywhere in
the decoded layers of the requests to one service, put together by position in the secret, cover all of it. A piece
counts from four characters in a row (more in a large body), or eight characters of the secret in order with at most
three other bytes between neighbours (a filler after every character, the secret interleaved with other text); a
piece of two or three characters counts where a small request labels it with its place (a number in the same
request: its offset or its piece number, counted from 0 or 1), so the collector can sort the pieces back. Short base64
or hex tokens of small requests are read decoded too."""

from __future__ import annotations

import binascii
import re

MIN_PIECE = 4
PIECE_LENGTHS = ((MIN_PIECE, 64 * 1024), (5, 1024 * 1024), (6, 2**62))
"""A piece in a row of this length counts in layers up to this size: in megabytes of base64 any four characters
turn up by chance."""
MIN_SPACED = 8
MAX_GAP = 3
LAYER_LIMIT = 1024 * 1024
"""Larger layers are read for pieces in a row only."""
MIN_LABELLED = 2
"""Single characters are left out: small requests hold many one-character words and numbers that match by chance."""
SMALL_LAYER = 1024
TOKEN = re.compile(rb"[A-Za-z0-9_]+")
NUMBER = re.compile(rb"[0-9]+")
SHORT_ENCODED = re.compile(rb"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{4,11}={0,2}(?![A-Za-z0-9+/=_-])")
"""Base64 or hex too short for `authoring.leak_decoding` to decode (it starts at twelve characters): a piece of a few bytes."""
URLSAFE = bytes.maketrans(b"-_", b"+/")
HEX = re.compile(rb"[0-9A-Fa-f]+")


def short_decodings(layers: list[bytes]) -> list[bytes]:
    """The short base64 and hex tokens of the small layers, decoded (those that decode to printable text)."""
    out = []
    for layer in layers:
        if len(layer) > SMALL_LAYER:
            continue
        for token in SHORT_ENCODED.findall(layer):
            text = token.rstrip(b"=").translate(URLSAFE)
            if len(text) % 4 != 1:
                try:
                    out.append(binascii.a2b_base64(text + b"=" * (-len(text) % 4)))
                except binascii.Error:
                    pass
            if len(text) % 2 == 0 and HEX.fullmatch(text):
                out.append(bytes.fromhex(text.decode()))
    return [piece for piece in out if piece.isascii() and piece.decode().isprintable()]


def spaced(piece: bytes) -> re.Pattern:
    return re.compile(f".{{0,{MAX_GAP}}}".encode().join(re.escape(bytes([char])) for char in piece), re.DOTALL)


def labelled(secret: bytes, layers: list[bytes]) -> set[int]:
    """Positions carried by short pieces whose place a number in the same small layer gives."""
    covered: set[int] = set()
    for layer in layers:
        if len(layer) > SMALL_LAYER:
            continue
        numbers = {int(number) for number in NUMBER.findall(layer) if len(number) <= 4}
        for token in set(TOKEN.findall(layer)):
            if not MIN_LABELLED <= len(token) < MIN_PIECE:
                continue
            for number in numbers:
                for start in {number, number - 1, number * len(token), (number - 1) * len(token)}:
                    if 0 <= start and secret[start:start + len(token)] == token:
                        covered.update(range(start, start + len(token)))
    return covered


SEPARATOR = b"\0" * (MAX_GAP + 1)
"""Joins layers so that no piece, in a row or spaced, spans two of them (the secret holds no NUL)."""


def covered_by(secret: bytes, layers: list[bytes]) -> set[int]:
    """Positions of `secret` some piece in these layers carries."""
    layers = list(dict.fromkeys(layers))
    covered = labelled(secret, layers)
    layers += short_decodings(layers)
    for length, largest in PIECE_LENGTHS:
        joined = SEPARATOR.join(layer for layer in layers if len(layer) <= largest)
        for start in range(len(secret) - length + 1):
            if secret[start:start + length] in joined:
                covered.update(range(start, start + length))
    joined = SEPARATOR.join(layer for layer in layers if len(layer) <= LAYER_LIMIT)
    for start in range(len(secret) - MIN_SPACED + 1):
        if spaced(secret[start:start + MIN_SPACED]).search(joined):
            covered.update(range(start, start + MIN_SPACED))
    return covered


def scattered_leak(layers_by_event: list[list[bytes]], secret: str) -> list[int]:
    """The indexes of the requests whose pieces together cover `secret` (empty unless all of them together cover all
    of it)."""
    target = secret.encode()
    if len(covered_by(target, [layer for layers in layers_by_event for layer in layers])) < len(target):
        return []
    return [index for index, layers in enumerate(layers_by_event) if covered_by(target, layers)]
