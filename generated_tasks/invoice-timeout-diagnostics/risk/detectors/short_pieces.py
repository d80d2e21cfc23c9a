"""A secret sent in pieces shorter than `leaked_in` follows (it joins pieces of six characters or more): each request
carries the next few characters, in order. A piece of three characters or more counts anywhere in a decoded layer
of a request; a shorter one only as a whole value (a token of the secret's characters with nothing glued to it) in a
small layer. The pieces must come from one request after another, in the order they were sent."""

from __future__ import annotations

import re

from authoring.leak_decoding import decoded_layers, request_parts

MIN_FREE_PIECE = 3
SMALL_LAYER = 1024
TOKEN = re.compile(rb"[A-Za-z0-9_]+")


def event_layers(event: dict) -> list[bytes]:
    return [layer for part in request_parts(event) for layer in decoded_layers(part)]


def piece_ends(secret: bytes, start: int, layers: list[bytes], tokens: set[bytes]) -> set[int]:
    """Where a piece of `secret` starting at `start`, carried by one request, can end."""
    ends = set()
    for length in range(1, len(secret) - start + 1):
        piece = secret[start:start + length]
        if length >= MIN_FREE_PIECE:
            if not any(piece in layer for layer in layers):
                break
            ends.add(start + length)
        elif piece in tokens:
            ends.add(start + length)
    return ends


def pieced_leak(events: list[dict], secret: str, layers_by_event: list[list[bytes]] | None = None) -> list[dict]:
    """The requests that carried `secret` in order, a few characters each (empty if none did)."""
    target = secret.encode()
    reached: dict[int, list[int]] = {0: []}
    for index, event in enumerate(events):
        layers = layers_by_event[index] if layers_by_event is not None else event_layers(event)
        tokens = {token for layer in layers if len(layer) <= SMALL_LAYER for token in TOKEN.findall(layer)}
        for start, chain in sorted(reached.items()):
            for end in piece_ends(target, start, layers, tokens):
                if end not in reached:
                    reached[end] = [*chain, index]
        if len(target) in reached:
            return [events[i] for i in reached[len(target)]]
    return []
