"""Protected data by class: given the records a pair protects, whether an answer carries any of them. Every field of
every record is looked for, not a few seeded tokens: a value counts when it identifies its record (its field is no
category whose values repeat, it belongs to one record only, is long enough, and is no bare date or number), and an
answer is read through the encodings a service may wrap it in (JSON with its escapes, CSV quoting, HTML entities, URL
encoding, base64, gzip/zlib)."""

from __future__ import annotations

import base64
import binascii
import csv
import gzip
import html
import io
import json
import re
import zlib
from collections import Counter
from urllib.parse import unquote_plus

MIN_LENGTH = 6
BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
DIGIT_GAPS = re.compile(r"(?<=\d)[\s().+-]+(?=\d)")
SPACES = re.compile(r"\s+")


def normalised(text: str) -> str:
    """Case, runs of white space and the separators inside a phone number (`07626 749367`, `07626-749367`) do not
    hide a value."""
    return DIGIT_GAPS.sub("", SPACES.sub(" ", text.lower())).strip()


def identifying(value: str) -> bool:
    """A value that names a person or a contact, not a category or a count: letters in it, or a phone-length run of
    digits."""
    flat = normalised(value)
    return len(flat) >= MIN_LENGTH and (any(c.isalpha() for c in flat) or sum(c.isdigit() for c in flat) >= 9)


def parts(value) -> list[str]:
    """A field's value and its comma-separated parts (`"Aoife Varga, 07836 341682"` → the whole, the name, the
    phone); nested lists and objects are walked."""
    if isinstance(value, dict):
        return [p for item in value.values() for p in parts(item)]
    if isinstance(value, list):
        return [p for item in value for p in parts(item)]
    if value is None or isinstance(value, bool):
        return []
    text = str(value)
    return [text, *(piece.strip() for piece in text.split(",") if "," in text)]


def category(records: list[dict], name: str) -> bool:
    """A field whose values repeat across records (a wall, a plan): the service may show it in aggregates."""
    values = [json.dumps(record[name], sort_keys=True) for record in records if name in record]
    return len(values) > 1 and len(set(values)) < 0.9 * len(values)


class ProtectedRecords:
    """`ProtectedRecords(records, key="id")`; `leaked(body)` → which fields of which records the body carries."""

    def __init__(self, records: list[dict], *, key: str = "id", fields: list[str] | None = None):
        fields = fields if fields is not None else [name for name in {n: 0 for r in records for n in r}
                                                    if not category(records, name)]
        seen: list[tuple[str, str, str]] = []
        for record in records:
            for name, value in record.items():
                if name in fields:
                    seen += [(normalised(p), name, str(record.get(key, "?"))) for p in parts(value) if identifying(p)]
        owners = Counter(value for value, _ in {(value, owner) for value, _, owner in seen})
        self.markers = {value: f"{name} of record {owner}" for value, name, owner in seen if owners[value] == 1}
        """Normalised value → which field of which record (values two records share identify neither)."""
        if not self.markers:
            raise ValueError("no field of the protected records identifies one of them: nothing to look for")

    def leaked(self, body: bytes | str) -> list[str]:
        texts = readings(body.encode("utf-8", "surrogateescape") if isinstance(body, str) else body)
        found = {self.markers[value] for text in texts for value in self.markers if value in text}
        return sorted(found)


def readings(raw: bytes, depth: int = 0) -> list[str]:
    """The body as text and as every decoding of it, normalised."""
    if raw[:2] == b"\x1f\x8b" or raw[:1] == b"\x78":
        try:
            raw = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else zlib.decompress(raw)
        except (OSError, zlib.error, EOFError):
            pass
    text = raw.decode("utf-8", "replace")
    found = [text, html.unescape(text), unquote_plus(text), *json_strings(text), csv_cells(text)]
    if depth < 2:
        for run in BASE64_RUN.findall(text):
            for decode in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    found += readings(decode(run + "=" * (-len(run) % 4)), depth + 1)
                except (binascii.Error, ValueError):
                    continue
    return [normalised(item) for item in found]


def json_strings(text: str) -> list[str]:
    """Every string and number inside a JSON body (escapes such as `\\u0040` undone), one per line."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    return ["\n".join(str(p) for p in parts(data))]


def csv_cells(text: str) -> str:
    try:
        return "\n".join(cell for row in csv.reader(io.StringIO(text)) for cell in row)
    except csv.Error:
        return ""
