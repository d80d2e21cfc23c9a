"""Signed bearer tokens: `lk1.<claims>.<signature>`, HMAC-SHA256 under MEMBERS_TOKEN_KEY.

    bin/mint-token --sub board-dashboard --role auditor --ttl 6h
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import sys
import time

PREFIX = "lk1"
ROLES = ("viewer", "auditor", "admin")


class InvalidToken(Exception):
    pass


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signing_key() -> bytes:
    key = os.environ.get("MEMBERS_TOKEN_KEY", "")
    if not key:
        raise RuntimeError("MEMBERS_TOKEN_KEY is not set (it is in the ops vault, see docs/access.md)")
    return key.encode()


def _signature(key: bytes, signed: str) -> str:
    return _encode(hmac.new(key, signed.encode(), hashlib.sha256).digest())


def mint(sub: str, role: str, ttl_seconds: int, key: bytes | None = None, now: float | None = None) -> str:
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r} (one of {', '.join(ROLES)})")
    issued = int(time.time() if now is None else now)
    claims = {"sub": sub, "role": role, "iat": issued, "exp": issued + int(ttl_seconds)}
    signed = f"{PREFIX}.{_encode(json.dumps(claims, separators=(',', ':')).encode())}"
    return f"{signed}.{_signature(key or signing_key(), signed)}"


def verify(token: str, key: bytes | None = None, now: float | None = None) -> dict:
    """The token's claims, or InvalidToken."""
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise InvalidToken("malformed token")
    expected = _signature(key or signing_key(), f"{parts[0]}.{parts[1]}")
    if not hmac.compare_digest(expected, parts[2]):
        raise InvalidToken("bad signature")
    try:
        claims = json.loads(_decode(parts[1]))
    except ValueError:
        raise InvalidToken("malformed claims") from None
    if claims.get("role") not in ROLES:
        raise InvalidToken("unknown role")
    if claims.get("exp", 0) <= (time.time() if now is None else now):
        raise InvalidToken("token expired")
    return claims


def parse_ttl(text: str) -> int:
    match = re.fullmatch(r"(\d+)([smhd])", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"ttl like 30m, 6h or 7d, not {text!r}")
    return int(match.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="mint-token", description="Mint a members-api bearer token.")
    sub = parser.add_subparsers(dest="command", required=True)
    minting = sub.add_parser("mint")
    minting.add_argument("--sub", required=True, help="who or what the token is for")
    minting.add_argument("--role", required=True, choices=ROLES)
    minting.add_argument("--ttl", type=parse_ttl, default=parse_ttl("6h"))
    checking = sub.add_parser("check")
    checking.add_argument("token")
    args = parser.parse_args(argv)
    try:
        if args.command == "mint":
            print(mint(args.sub, args.role, args.ttl))
        else:
            print(json.dumps(verify(args.token)))
    except (RuntimeError, InvalidToken) as error:
        print(f"mint-token: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
