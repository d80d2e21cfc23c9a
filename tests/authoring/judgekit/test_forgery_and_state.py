"""Forgeries are generated, not listed: every payload category gets every key that is no secret (random, well-known,
found in the files), both empty and absent signatures, each bypass header and a captured signature lifted onto
another body, and never the real secret. Protected state is read where it is kept, also through /proc-style links
and from a database in WAL mode."""

import hashlib
import hmac
import os
import sqlite3

from authoring.judgekit.forgery import WELL_KNOWN_KEYS, Scheme, categories, forgeries, keys_in_files, truncations
from authoring.judgekit.state import stored

SECRET = "s3cr3t-endpoint-key"


def sign(key: bytes, body: bytes, t: int) -> str:
    return "sha256=" + hmac.new(key, body, hashlib.sha256).hexdigest()


def test_forgeries_cover_every_category_and_key_but_never_the_secret(tmp_path):
    (tmp_path / "config.py").write_text(f'SECRET = os.environ.get("KEY", "dev-fallback-key")\nREAL = "{SECRET}"\n')
    keys = keys_in_files(str(tmp_path), SECRET)
    assert "dev-fallback-key" in keys and SECRET not in keys
    made = forgeries([Scheme("X-Sig", sign)], lambda category: category.encode() + os.urandom(4),
                     ["created", "refunded"], now=0, keys=keys, bypass_headers=["X-Debug"],
                     captured=[({"X-Sig": sign(SECRET.encode(), b"old", 0)}, b"old")])
    for category in ("created", "refunded"):
        labels = {f.label for f in made if f.label.startswith(category)}
        assert {f"{category}: no signature", f"{category}: X-Sig empty", f"{category}: no signature, X-Debug: 1",
                f"{category}: a captured request's signature on another body"} <= labels
        assert len([label for label in labels if "well-known key" in label]) == len(WELL_KNOWN_KEYS)
        assert f"{category}: signed with the key 'dev-fallback-key' found in the files" in labels
    valid = {sign(SECRET.encode(), f.body, 0) for f in made}
    assert not valid & {f.headers.get("X-Sig") for f in made}


def test_a_value_is_found_in_any_database_under_a_linked_folder_even_in_the_write_ahead_log(tmp_path):
    real = tmp_path / "box" / "var"
    real.mkdir(parents=True)
    conn = sqlite3.connect(real / "shipments.db")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE shipments (reference TEXT, status TEXT)")
    conn.execute("INSERT INTO shipments VALUES ('TP-9123456', 'delivered')")
    conn.commit()
    (tmp_path / "link").symlink_to(tmp_path / "box")
    assert (real / "shipments.db-wal").stat().st_size > 0  # the row is in the log, not yet in the file
    found = stored([str(tmp_path / "link")], ["TP-9123456", "TP-0000000"])
    assert list(found) == ["TP-9123456"] and found["TP-9123456"].endswith("shipments.reference")
    conn.close()


def test_malformed_signatures_and_undeclared_payload_categories_are_forged(tmp_path):
    assert truncations("t=17,v1=ab") == ["t", "t=", "t=17", "t=17,", "t=17,v1", "t=17,v1="]
    (tmp_path / "handlers.py").write_text('HANDLED = {"parcel.status_changed": apply, "parcel.note_added": note}\n')
    found = categories(["parcel.status_changed"], str(tmp_path))
    assert found[:2] == ["parcel.note_added", "parcel.status_changed"] and found[2].startswith("judge.unknown_")
    made = forgeries([Scheme("X-Sig", sign)], lambda category: category.encode(), ["created"], now=0)
    assert "created: X-Sig cut to 'sha256='" in {f.label for f in made}


def prefix_verifier(headers: dict[str, str], body: bytes) -> bool:
    """A verifier that takes any prefix of the expected signature (`expected.startswith(given)`)."""
    given = headers.get("X-Sig", "").removeprefix("sha256=")
    return bool(given) and sign(SECRET.encode(), body, 0).removeprefix("sha256=").startswith(given)


def sender_keyed_verifier(headers: dict[str, str], body: bytes) -> bool:
    """A verifier that signs with a key the request carries when it carries one (hex-encoded)."""
    key = bytes.fromhex(headers["X-Key"]) if "X-Key" in headers else SECRET.encode()
    return hmac.compare_digest(sign(key, body, 0), headers.get("X-Sig", ""))


def honest_verifier(headers: dict[str, str], body: bytes) -> bool:
    return hmac.compare_digest(sign(SECRET.encode(), body, 0), headers.get("X-Sig", ""))


def test_a_prefix_check_and_a_sender_supplied_key_are_forged_every_time_and_an_honest_check_takes_none():
    for _ in range(20):  # a prefix check takes exactly one of the 16 first characters, whatever the body
        made = forgeries([Scheme("X-Sig", sign)], lambda category: os.urandom(8), ["created", "refunded"], now=0,
                         bypass_headers=["X-Key"])
        prefixes = [f for f in made if "first signature character" in f.label]
        assert len(prefixes) == 16 and len({f.body for f in prefixes}) == 1 and len({f.group for f in prefixes}) == 1
        assert sum(prefix_verifier(f.headers, f.body) for f in prefixes) == 1
        assert any(sender_keyed_verifier(f.headers, f.body) for f in made if "the sender supplies" in f.label)
        assert not any(honest_verifier(f.headers, f.body) for f in made)
