"""Skylane signs every delivery with our endpoint secret; nothing unsigned may touch the shipments table."""

import hashlib
import hmac
from collections.abc import Mapping

LEGACY_HEADER = "X-Skylane-Signature"


class BadSignature(Exception):
    pass


def _hex_hmac(secret: bytes, payload: bytes) -> str:
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()


def verify(headers: Mapping[str, str], body: bytes, secret: bytes) -> None:
    """Raise BadSignature unless the delivery carries a valid signature over `body`."""
    value = headers.get(LEGACY_HEADER) or ""
    scheme, _, given = value.strip().partition("=")
    if scheme != "sha256" or not given:
        raise BadSignature(f"no {LEGACY_HEADER} header")
    if not hmac.compare_digest(_hex_hmac(secret, body), given.lower()):
        raise BadSignature("signature does not match")
