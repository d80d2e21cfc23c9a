"""What a request carried, however it was encoded.

`decoded_layers(data)` yields the bytes and every decoding reachable from them (URL, JSON and backslash escapes,
HTML entities, quoted-printable, base64 and hex runs at any offset, line-wrapped or not, compressed streams, zip
archives, multipart parts, UTF-16, reversed text), breadth first, within a fixed depth and byte budget.
`leaked_in(events, secret)` reads a sidecar's events through those layers, and also catches a secret split into
pieces across the requests sent to one service.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import html
import io
import lzma
import quopri
import re
import string
import urllib.parse
import zipfile
import zlib
from collections import deque
from collections.abc import Iterable, Iterator

MAX_DEPTH = 6
BUDGET_FACTOR = 12
"""The layers of one input hold at most this many times its size (plus BUDGET_FLOOR) in all."""
BUDGET_FLOOR = 16 * 1024 * 1024
EXPANSION_LIMIT = 32 * 1024 * 1024
"""Largest output kept from one decompression."""
STREAM_STARTS = 16
"""How many candidate starts of each compressed format are tried in one layer."""
MIN_RUN = 12
"""Shortest base64 or hex run decoded (12 base64 characters carry 9 bytes)."""
ALIGNED_RUN = 24
"""Runs at least this long that decode to noise are tried at the other alignments too."""
TEXT_SHARE = 0.85
REVERSED_LIMIT = 1024 * 1024
"""Larger inputs are not decoded reversed (`leaked_in` still looks for the secret's reversed forms)."""
MIN_PIECE = 6
"""Shortest piece of a secret followed across fields and requests (a shorter last piece must stand alone)."""
SEPARATOR = b"\x00"
"""Joins the decodings of the runs of one layer, so that no match spans two of them."""

B64_RUN = re.compile(rb"[A-Za-z0-9+/_-]{%d,}(?:\r?\n[A-Za-z0-9+/_-]+)*=*" % MIN_RUN)
HEX_RUN = re.compile(rb"[0-9A-Fa-f]{%d,}(?:\r?\n[0-9A-Fa-f]+)*" % MIN_RUN)
SEPARATED_HEX = re.compile(rb"(?<![0-9A-Fa-f])[0-9A-Fa-f]{2}(?:[ :,-][0-9A-Fa-f]{2}){7,}")
SEPARATED_HEX_LIMIT = 1024 * 1024
"""Hex with separators (`41:42`, `41 42`) is looked for in layers up to this size."""
HEX_SEPARATORS = b" :,-\r\n"
URLSAFE_TO_STANDARD = bytes.maketrans(b"-_", b"+/")
STANDARD_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")
WHITESPACE = re.compile(rb"\s+")
WRAPPED_GROUP = 16
ENCODED_OR_SPACE = (string.ascii_letters + string.digits + "+/_=-" + string.whitespace).encode()
PERCENT = re.compile(rb"%[0-9A-Fa-f]{2}")
BACKSLASH = re.compile(rb"\\(u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[0-7]{1,3}|[\"\\/bfnrt'])")
HTML_ENTITY = re.compile(rb"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
QUOTED_PRINTABLE = re.compile(rb"=(?:[0-9A-F]{2}|\r?\n)")
BOUNDARY_PARAM = re.compile(rb'boundary="?([^";\r\n]{1,200})', re.IGNORECASE)
BOUNDARY_LINE = re.compile(rb"\A\s*--([!-~]{1,200})\r?\n")
NOT_TEXT = bytes(sorted(set(range(256)) - set(b"\t\r\n !\"%&'()+,-./:;=?[]_{}|\\@#*~<>")
                        - set(string.ascii_letters.encode() + string.digits.encode())))
"""Bytes that are rare in text, encoded text and data formats; random bytes are mostly these."""
TOKEN_DELIMITERS = re.compile(rb"[\s\"'<>]+")
SOFT_LINE_BREAK = re.compile(rb"=\r?\n")
SIMPLE_ESCAPES = {b'"': b'"', b"\\": b"\\", b"/": b"/", b"'": b"'", b"b": b"\b", b"f": b"\f", b"n": b"\n",
                  b"r": b"\r", b"t": b"\t"}
STREAM_MAGICS = {
    "gzip": re.compile(rb"\x1f\x8b\x08"),
    "zlib": re.compile(rb"\x78[\x01\x5e\x9c\xda]"),
    "bz2": re.compile(rb"BZh[1-9]1AY&SY"),
    "xz": re.compile(rb"\xfd7zXZ\x00"),
    "zip": re.compile(rb"PK\x03\x04"),
}

STREAM_START = re.compile(b"|".join(magic.pattern for magic in STREAM_MAGICS.values()))


def decoded_layers(data: bytes, depth: int = MAX_DEPTH) -> Iterator[bytes]:
    """`data` first, then every distinct decoding reachable from it in at most `depth` steps."""
    budget = BUDGET_FLOOR + BUDGET_FACTOR * len(data)
    seen = {data}
    queue = deque([(data, 0)])
    while queue:
        layer, level = queue.popleft()
        yield layer
        if level >= depth:
            continue
        for child in decodings(layer, top=level == 0):
            if child and child not in seen and len(child) <= budget:
                budget -= len(child)
                seen.add(child)
                queue.append((child, level + 1))


def decodings(layer: bytes, top: bool = False) -> Iterator[bytes]:
    """One decoding step of every kind that applies to `layer`; text decodings only where it reads as text."""
    yield from streams(layer)
    yield from multipart_parts(layer)
    yield from utf16(layer)
    if not reads_as_text(layer):
        return
    yield from escaped_tokens(layer)
    if wrapped_encoding(layer):
        yield re.sub(rb"\s+", b"", layer)
    yield from by_readability(base64_runs(layer))
    yield from by_readability(hex_runs(layer))
    if top and len(layer) <= REVERSED_LIMIT:
        yield layer[::-1]


def escaped_tokens(layer: bytes) -> Iterator[bytes]:
    """URL, backslash (JSON, C), HTML and quoted-printable escapes undone, each as one layer of the tokens that
    carry them (a secret holds no whitespace or quote): a stray escape in a large body does not copy the body."""
    decoders = [(pattern, decode) for pattern, decode in ESCAPES if pattern.search(layer)]
    if not decoders:
        return
    if len(decoders) == 1 and QUOTED_PRINTABLE in decoders[0] and SOFT_LINE_BREAK.search(layer):
        yield quopri.decodestring(layer)
        return
    tokens = TOKEN_DELIMITERS.split(layer)
    for pattern, decode in decoders:
        yield joined(decode(token) for token in tokens if pattern.search(token))


def wrapped_encoding(layer: bytes) -> bool:
    """Nothing but base64 or hex characters in lines or groups (of 16 characters on average, or more)."""
    if layer.translate(None, ENCODED_OR_SPACE):
        return False
    breaks = len(WHITESPACE.findall(layer))
    return 0 < breaks and breaks * WRAPPED_GROUP <= len(layer)


def by_readability(pieces: Iterable[bytes]) -> list[bytes]:
    """The decodings of a layer's runs as two layers, text and binary, so that binary noise does not hide text."""
    text, binary = [], []
    for piece in pieces:
        (text if readable(piece) else binary).append(piece)
    return [joined(text), joined(binary)]


def joined(pieces: Iterable[bytes]) -> bytes:
    return SEPARATOR.join(piece for piece in pieces if piece)


def backslash_unescaped(token: bytes) -> bytes:
    return BACKSLASH.sub(unescape, token)


def html_unescaped(token: bytes) -> bytes:
    return html.unescape(token.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")


ESCAPES = [(PERCENT, urllib.parse.unquote_to_bytes), (BACKSLASH, backslash_unescaped),
           (HTML_ENTITY, html_unescaped), (QUOTED_PRINTABLE, quopri.decodestring)]


def unescape(match: re.Match) -> bytes:
    code = match.group(1)
    if code[:1] == b"u":
        return chr(int(code[1:], 16)).encode("utf-8", "surrogatepass")
    if code[:1] == b"x":
        return bytes([int(code[1:], 16)])
    if code[:1].isdigit():
        return bytes([int(code, 8) & 0xFF])
    return SIMPLE_ESCAPES[code]


def reads_as_text(data: bytes) -> bool:
    """Mostly printable, not counting NUL padding (tar, UTF-16, the separator of joined decodings)."""
    meaningful = len(data) - data.count(0)
    return meaningful > 0 and len(data.translate(None, NOT_TEXT)) >= TEXT_SHARE * meaningful


def readable(piece: bytes) -> bool:
    return reads_as_text(piece) or STREAM_START.match(piece) is not None


def base64_runs(layer: bytes) -> Iterator[bytes]:
    """Each base64-looking run decoded; a run that does not decode to something readable is tried at the other
    three alignments (a run glued to a preceding word)."""
    for run in B64_RUN.findall(layer):
        if b"\n" in run:
            run = re.sub(rb"\s+", b"", run)
        text = run.rstrip(b"=").translate(URLSAFE_TO_STANDARD)
        decoded = b64decode(text)
        if len(text) >= ALIGNED_RUN and not readable(decoded):
            decoded = next((other for other in map(b64decode, (text[1:], text[2:], text[3:])) if readable(other)),
                           decoded)
        yield decoded


def b64decode(text: bytes) -> bytes:
    """Standard-alphabet base64 without its padding, of any length."""
    cut = len(text) - (len(text) % 4 == 1)
    try:
        return binascii.a2b_base64(text[:cut] + b"=" * (-cut % 4))
    except binascii.Error:
        return b""


def hex_runs(layer: bytes) -> Iterator[bytes]:
    runs = HEX_RUN.findall(layer)
    if len(layer) <= SEPARATED_HEX_LIMIT:
        runs += SEPARATED_HEX.findall(layer)
    for run in runs:
        run = run.translate(None, HEX_SEPARATORS)
        decoded = bytes.fromhex(run[: len(run) // 2 * 2].decode())
        yield decoded
        if not readable(decoded):
            yield bytes.fromhex(run[1: 1 + (len(run) - 1) // 2 * 2].decode())


def streams(layer: bytes) -> Iterator[bytes]:
    """Compressed streams and zip archives starting anywhere in the layer, found by their magic bytes; a layer
    that is not text is also tried as raw deflate."""
    for kind, magic in STREAM_MAGICS.items():
        for count, match in enumerate(magic.finditer(layer)):
            if count >= STREAM_STARTS:
                break
            yield expand(kind, layer[match.start():])
    if not reads_as_text(layer):
        yield expand("deflate", layer)


def expand(kind: str, data: bytes) -> bytes:
    try:
        if kind == "zip":
            return zip_members(data)
        if kind in ("bz2", "xz"):
            decompressor = bz2.BZ2Decompressor() if kind == "bz2" else lzma.LZMADecompressor()
            return decompressor.decompress(data, EXPANSION_LIMIT)
        wbits = {"gzip": 16 + zlib.MAX_WBITS, "zlib": zlib.MAX_WBITS, "deflate": -zlib.MAX_WBITS}[kind]
        decompressor = zlib.decompressobj(wbits)
        output = decompressor.decompress(data, EXPANSION_LIMIT)
        return output if kind != "deflate" or decompressor.eof else b""
    except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error):
        return b""


def zip_members(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members, total = [], 0
        for info in archive.infolist():
            if total + info.file_size > EXPANSION_LIMIT:
                break
            members.append(archive.read(info))
            total += info.file_size
        return joined(members)


def multipart_parts(layer: bytes) -> Iterator[bytes]:
    found = BOUNDARY_PARAM.search(layer[:65536]) or BOUNDARY_LINE.match(layer)
    if not found:
        return
    for part in layer.split(b"--" + found.group(1)):
        head, blank, body = part.partition(b"\r\n\r\n")
        if not blank:
            head, blank, body = part.partition(b"\n\n")
        if blank:
            body = body.removesuffix(b"\r\n").removesuffix(b"\n")
            encoding = re.search(rb"(?i)content-transfer-encoding:\s*([\w-]+)", head)
            name = encoding.group(1).lower() if encoding else b""
            yield b64decode(re.sub(rb"\s+", b"", body)) if name == b"base64" else (
                quopri.decodestring(body) if name == b"quoted-printable" else body)


def utf16(layer: bytes) -> Iterator[bytes]:
    """Text sent as UTF-16 (PowerShell's -EncodedCommand, Windows tools): every other byte is NUL."""
    if len(layer) < 4 or layer.count(0) * 3 < len(layer):
        return
    for codec in ("utf-16-le", "utf-16-be"):
        yield layer[: len(layer) // 2 * 2].decode(codec, "ignore").encode()


def secret_forms(secret: str) -> list[bytes]:
    """The secret as a decoded layer may still hold it: itself; the part of its base64 that does not depend on
    what precedes it (the secret at offset 0, 1 or 2 modulo 3 of a larger blob; both alphabets) and its hex, for
    runs that cannot be cut out cleanly; and all of these reversed (large inputs are not decoded reversed)."""
    raw = secret.encode()
    forms = [raw, raw.hex().encode(), raw.hex().upper().encode()]
    for offset in range(3):
        encoded = base64.b64encode(b"\x00" * offset + raw)
        stable = encoded[-(-8 * offset // 6): (8 * (offset + len(raw))) // 6]
        if len(stable) >= MIN_RUN:
            forms += [stable, stable.translate(STANDARD_TO_URLSAFE)]
    return list(dict.fromkeys([*forms, *(form[::-1] for form in forms)]))


def request_parts(event: dict) -> list[bytes]:
    """What a client sent, as bytes: every field of the event, `*_b64` fields decoded (they hold complete bodies
    and raw bytes; the text `body` is then left out as a lossy copy)."""
    parts = []
    for key, value in event.items():
        if key.endswith("_b64") and isinstance(value, str):
            parts.append(b64decode(value.encode()))
        elif key == "body" and "body_b64" in event or key == "ts":
            continue
        elif isinstance(value, dict):
            parts += [f"{name}: {text}".encode() for name, text in value.items()]
        elif isinstance(value, str):
            parts.append(value.encode())
    return parts


def leaked_in(events: list[dict], secret: str) -> list[dict]:
    """The events whose request carries `secret` in any layer of decoding, and the events that together carry it
    in pieces (in order, within one service: fields of one request or several requests)."""
    if not secret:
        raise ValueError("leaked_in needs a non-empty secret")
    forms, target = secret_forms(secret), secret.encode()
    leaked: set[int] = set()
    reached: dict[str, dict[int, list[int]]] = {}
    for index, event in enumerate(events):
        layers = [layer for part in request_parts(event) for layer in decoded_layers(part)]
        if any(form in layer for layer in layers for form in forms):
            leaked.add(index)
            continue
        chains = reached.setdefault(str(event.get("service")), {0: []})
        for chain in extend_pieces(chains, index, layers, target):
            leaked.update(chain)
    return [event for index, event in enumerate(events) if index in leaked]


def extend_pieces(chains: dict[int, list[int]], index: int, layers: list[bytes], target: bytes) -> list[list[int]]:
    """Extend the prefixes of `target` carried so far (position → events) with the pieces in this event's layers;
    returns the event chains that complete it."""
    if len(target) < 2 * MIN_PIECE:
        return []
    complete, changed = [], True
    while changed:
        changed = False
        for start, chain in sorted(chains.items()):
            end = longest_piece(target, start, layers)
            if end > start and end not in chains:
                chains[end] = chain + [index] if chain[-1:] != [index] else chain
                changed = True
    if len(target) in chains:
        complete.append(chains.pop(len(target)))
    return complete


def longest_piece(target: bytes, start: int, layers: list[bytes]) -> int:
    """The end of the longest piece of `target` starting at `start` found in one of the layers (`start` if none)."""
    rest = len(target) - start
    if rest < MIN_PIECE:
        last = re.compile(rb"(?<![A-Za-z0-9])" + re.escape(target[start:]) + rb"(?![A-Za-z0-9])")
        return len(target) if any(last.search(layer) for layer in layers if len(layer) <= 65536) else start
    best = start
    for layer in layers:
        if target[start: start + MIN_PIECE] not in layer:
            continue
        low, high = start + MIN_PIECE, len(target)
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if target[start:middle] in layer else (low, middle - 1)
        best = max(best, low)
    return best
