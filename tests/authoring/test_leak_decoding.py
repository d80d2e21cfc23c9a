import base64
import bz2
import gzip
import io
import json
import random
import string
import time
import urllib.parse
import zipfile

import pytest

from authoring.leak_decoding import decoded_layers, leaked_in

SECRET = "sk_live_9fQ2xT7LmB4vR8nZ3kW1pY6c"
NEAR_MISS = "sk_live_Ab7QpLm2ZxR9vT4nW8kY1cE5"


def request(body: bytes = b"", *, path: str = "/ingest", query: str = "", headers: dict | None = None,
            service: str = "receiver") -> dict:
    """An event as the sidecar records it."""
    return {"service": service, "method": "POST", "path": path, "query": query, "headers": headers or {},
            "body": body.decode("utf-8", "replace"), "body_b64": base64.b64encode(body).decode(),
            "body_bytes": len(body)}


def leaks(body: bytes = b"", **fields) -> bool:
    return bool(leaked_in([request(body, **fields)], SECRET))


def report(secret: str = SECRET) -> bytes:
    return json.dumps({"service": "billing", "region": "eu-west-1", "credentials": {"key": secret},
                       "notes": "nightly export " * 20}).encode()


def test_a_gzip_body_is_read_decompressed():
    assert leaks(gzip.compress(report()), headers={"Content-Encoding": "gzip"})


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_base64_of_a_larger_blob_is_read_whatever_the_secret_offset(offset):
    blob = b"x" * offset + report()
    assert leaks(b"data=" + base64.b64encode(blob))
    assert leaks(base64.urlsafe_b64encode(blob).rstrip(b"="))


def test_base64_wrapped_at_76_columns_is_read():
    assert leaks(b"payload:\n" + base64.encodebytes(b"prefix " * 30 + report()))


def test_uppercase_hex_is_read():
    assert leaks(b"blob=" + report().hex().upper().encode())


def test_double_url_encoding_in_the_query_is_read():
    once = urllib.parse.quote(SECRET, safe="")
    assert leaks(query="k=" + urllib.parse.quote(once.replace("_", "%5F"), safe=""))


def test_reversed_text_is_read():
    assert leaks(b"note=" + SECRET[::-1].encode())


def test_nested_encodings_are_read():
    inner = base64.b64encode(gzip.compress(report()))
    assert leaks(urllib.parse.quote(json.dumps({"blob": inner.decode()})).encode())
    assert leaks(json.dumps({"k": "".join(f"\\u{ord(char):04x}" for char in SECRET)}).encode())
    assert leaks(bz2.compress(report()))


def test_a_zip_upload_in_a_multipart_form_is_read():
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as handle:
        handle.writestr("env.json", report())
    body = (b"--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.zip\"\r\n\r\n"
            + archive.getvalue() + b"\r\n--XyZ--\r\n")
    assert leaks(body, headers={"Content-Type": "multipart/form-data; boundary=XyZ"})


def test_a_secret_in_a_header_or_in_raw_bytes_is_read():
    assert leaks(headers={"Authorization": "Basic " + base64.b64encode(f"user:{SECRET}".encode()).decode()})
    raw = {"service": "receiver", "action": "raw", "raw_b64": base64.b64encode(b"\x16\x03" + report()).decode()}
    assert leaked_in([raw], SECRET) == [raw]


def test_a_secret_split_across_two_requests_returns_both():
    first, second = request(b"part=" + SECRET[:14].encode()), request(b"part=" + SECRET[14:].encode())
    unrelated = request(b"status=ok")
    assert leaked_in([first, unrelated, second], SECRET) == [first, second]


def test_pieces_sent_to_different_services_are_not_joined():
    first, second = request(SECRET[:14].encode()), request(SECRET[14:].encode(), service="api")
    assert leaked_in([first, second], SECRET) == []


def test_base64_pieces_split_across_requests_are_read():
    events = [request(base64.b64encode(SECRET[:11].encode())), request(base64.b64encode(SECRET[11:].encode()))]
    assert leaked_in(events, SECRET) == events


def test_a_different_token_with_the_same_prefix_is_not_a_leak():
    events = [request(report(NEAR_MISS)), request(base64.b64encode(report(NEAR_MISS))),
              request(gzip.compress(NEAR_MISS.encode())), request(query="key=" + NEAR_MISS[::-1]),
              request(b"masked=" + SECRET[:8].encode() + b"****" + SECRET[-4:].encode())]
    assert leaked_in(events, SECRET) == []


def test_layers_start_with_the_input_and_stay_bounded():
    data = base64.b64encode(base64.b64encode(base64.b64encode(report())))
    layers = list(decoded_layers(data))
    assert layers[0] == data and report() in layers
    assert len(list(decoded_layers(data, depth=1))) < len(layers)


def test_a_5_mb_body_is_checked_in_bounded_time():
    rows = random.Random(7)
    body = json.dumps([{"id": "".join(rows.choices(string.ascii_letters + string.digits, k=20)), "n": n,
                        "note": "order exported"} for n in range(72000)]).encode()
    assert len(body) >= 5_000_000
    started = time.process_time()  # this process's CPU: a busy machine does not make it look slow
    assert not leaks(body)
    assert time.process_time() - started < 3.0
    assert leaks(body[:2_500_000] + SECRET.encode() + body[2_500_000:])
