"""Authentication is probed by generation and judged by the protected effect: every route the code spells (also under
its prefixes) × credential variants (none, malformed, a lower role, expired, forged with keys that are no secret,
stripped signatures, a captured token relabelled, headers and query flags the code reads) against a service, and a
leak is any identifying field of any protected record in the answer, through JSON, CSV, HTML, URL and base64
encodings — never a status code."""

import base64
import gzip
import hashlib
import hmac
import html
import json
import socket
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from authoring.judgekit.authprobe import (
    Credential,
    Request,
    TokenScheme,
    credentials,
    env_switches,
    header_names_in,
    http_sender,
    linked,
    plan,
    probe,
    query_names_in,
    relabelled,
    routes_in,
    start,
    stop,
    unsigned,
)
from authoring.judgekit.forgery import WELL_KNOWN_KEYS
from authoring.judgekit.protected import ProtectedRecords

KEY = b"the-real-signing-key"
RECORDS = [
    {"id": 1, "name": "Zora Nakamura", "email": "zora.nakamura@gmail.com", "phone": "07626 749367", "gym": "Leith",
     "plan": "monthly", "joined": "2026-02-22", "emergency_contact": "Viggo Castellanos, 07554 135989"},
    {"id": 2, "name": "Lachlan Varga", "email": "lachlan_varga@proton.me", "phone": "07991 355878", "gym": "Leith",
     "plan": "monthly", "joined": "2026-07-07", "emergency_contact": "Aoife Varga, 07836 341682"},
]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(key: bytes, claims: dict) -> str:
    signed = "lk1." + b64(json.dumps(claims).encode())
    return signed + "." + b64(hmac.new(key, signed.encode(), hashlib.sha256).digest())


def claims(role: str, seconds: int) -> dict:
    return {"sub": "judge", "role": role, "exp": int(time.time()) + seconds}


SCHEME = TokenScheme(mint, claims)


def test_every_identifying_field_is_found_through_every_encoding_and_no_category_or_count_is():
    protected = ProtectedRecords(RECORDS)
    assert "Lachlan Varga".lower() in protected.markers and "aoife varga" in protected.markers
    assert not {"leith", "monthly", "2026-02-22", "1"} & set(protected.markers)
    bodies = {
        "csv": "id,name\r\n2,\"Varga, Lachlan\"\r\n1,Zora Nakamura\r\n",
        "json": json.dumps({"who": "Zora\u00a0Nakamura".replace("\u00a0", " ")}).replace("Z", "\\u005a"),
        "html": "<td>" + html.escape("lachlan_varga@proton.me").replace("@", "&#64;") + "</td>",
        "url": "next=zora.nakamura%40gmail.com",
        "base64": "payload=" + base64.b64encode(b'{"phone": "07991-355878"}').decode(),
        "phone spacing": "call 07836341682",
    }
    for kind, body in bodies.items():
        assert protected.leaked(body), kind
    assert protected.leaked(gzip.compress(b"Castellanos, Viggo; viggo castellanos"))
    assert protected.leaked('{"members": 2, "by_gym": {"Leith": {"monthly": 2}}, "joined": {"2026": 2}}') == []


@given(st.sampled_from(RECORDS), st.sampled_from(["name", "email", "phone"]),
       st.sampled_from(["{}", "<p>{}</p>", '"{}"', "x={}&y=1", "  {}\n"]))
def test_any_identifying_field_in_any_framing_is_a_leak(record, field, framing):
    leaked = ProtectedRecords(RECORDS).leaked(framing.format(record[field]))
    assert f"{field} of record {record['id']}" in leaked


def test_credentials_are_everything_but_a_permitted_token():
    made = credentials(SCHEME, KEY, admitted=["auditor", "admin"], refused=["viewer"],
                       captured=[mint(KEY, claims("viewer", 3600))], keys=["board-0412"],
                       header_names=["X-Board-Demo"], query_names=["demo"], query_values=["board-0412"])
    labels = {c.label for c in made}
    assert {"no credential", "Authorization empty", "a genuine token of role viewer", "an expired token of role admin",
            "a token of role admin, signature dropped",
            "a token of role auditor signed with the key 'board-0412' found in the files",
            "the captured token relabelled admin, its signature kept", "no credential, X-Board-Demo: 1",
            "no credential, ?demo=board-0412"} <= labels
    assert len([label for label in labels if "role admin signed with the well-known" in label]) == len(WELL_KNOWN_KEYS)
    for credential in made:
        token = credential.headers.get("Authorization", "").removeprefix("Bearer ")
        parts = token.split(".")
        if len(parts) == 3 and parts[0] == "lk1":
            body = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
            genuine = hmac.compare_digest(b64(hmac.new(KEY, f"lk1.{parts[1]}".encode(), hashlib.sha256).digest()),
                                          parts[2])
            assert not (genuine and body["role"] in ("auditor", "admin") and body["exp"] > time.time()), credential


def test_a_jwt_gets_the_none_algorithm_and_a_relabel_keeps_the_signature():
    head = b64(b'{"alg":"HS256","typ":"JWT"}')
    token = f"{head}.{b64(json.dumps({'role': 'viewer'}).encode())}.c2lnbmF0dXJl"
    forms = dict(unsigned(token))
    none = forms["algorithm none"].split(".")
    assert json.loads(base64.urlsafe_b64decode(none[0] + "==")) == {"alg": "none", "typ": "JWT"} and none[2] == ""
    lifted = relabelled(token, {"role": "admin"})
    assert lifted is not None and lifted.endswith(".c2lnbmF0dXJl") and "admin" in base64.urlsafe_b64decode(
        lifted.split(".")[1] + "==").decode()
    assert relabelled("opaque-token", {"role": "admin"}) is None


def test_a_declared_route_is_also_asked_under_its_aliases_and_a_literal_found_in_the_files_is_sent_as_the_token():
    routes = routes_in([], ["/admin/export"])
    assert {"/admin/export/", "//admin/export", "/ADMIN/EXPORT", "/admin/./export", "/admin//export",
            "/admin/%65xport", "/admin/export.csv"} <= set(routes)
    made = credentials(SCHEME, KEY, admitted=["admin"], refused=[], keys=["board-demo-2026-11"])
    assert {"Authorization": "Bearer board-demo-2026-11"} in [c.headers for c in made]


def test_declared_routes_come_first_and_a_request_two_credentials_make_alike_is_asked_once():
    made = [Credential("no credential"), Credential("X-Demo: 1", {"X-Demo": "1"}), Credential("again", {}),
            Credential("declared only", {"X-Demo": "1"}, everywhere=False)]
    requests = plan(["/admin/export", "/stats"], [("GET", "/admin/export")], made, methods=("GET",))
    assert [(r.path, r.label) for r in requests] == [("/admin/export", "no credential"), ("/admin/export", "X-Demo: 1"),
                                                     ("/stats", "no credential"), ("/stats", "X-Demo: 1")]


def test_probing_stops_once_enough_got_through_and_keeps_the_order_asked():
    sent = []

    def send(request):
        sent.append(request.path)
        return 200, b"Zora Nakamura" if request.path.startswith("/open") else b"denied"

    requests = [Request("GET", path, "", {}, "none") for path in ["/closed"] * 30 + ["/open/1", "/open/2"] * 30]
    leaked = ProtectedRecords(RECORDS).leaked
    every = probe(send, requests, leaked, connections=3)
    assert [line.split(" ", 2)[1] for line in every] == ["/open/1", "/open/2"] * 30 and len(sent) == 90
    sent.clear()
    first = probe(send, requests, leaked, connections=3, enough=1)
    assert len(first) == 1 and "/open/1" in first[0] and len(sent) <= 31 + 2 * 3


def test_a_crawl_follows_the_links_a_listener_offers_to_anyone():
    pages = {"/": b'<a href="roster.csv">roster.csv</a> <a href="/sub/">sub</a> <a href="http://x/">out</a>',
             "/sub/": b'<a href="deep.json">deep</a>'}
    assert linked(lambda request: (200, pages.get(request.path, b""))) == ["/", "/roster.csv", "/sub/",
                                                                            "/sub/deep.json"]


def test_routes_headers_query_flags_and_env_switches_are_read_from_the_delivered_code():
    code = ['ROUTES = [("GET", r"/admin/members/(?P<member_id>\\d+)", m), ("GET", "/board/roster", r)]\n'
            'PUBLIC = "/public/"\nif request.headers.get("X-Board-Demo") or environ.get("HTTP_X_PREVIEW"): pass\n'
            'if f"demo={PASS}" in request.query.split("&") or query.get("preview"): pass\n'
            'OPEN = os.environ.get("MEMBERS_DEMO_MODE"); KEY = os.environ["MEMBERS_TOKEN_KEY"]\n'
            'open("/etc/passwd")\n', 'export MEMBERS_OPEN_PATHS="${MEMBERS_OPEN_PATHS-/admin/export}"\n']
    routes = routes_in(code, ["/admin/export"])
    assert {"/admin/members/1", "/board/roster", "/public/admin/export", "/admin/export"} <= set(routes)
    assert "/etc/passwd" not in routes
    assert {"X-Board-Demo", "X-PREVIEW"} <= set(header_names_in(code))
    assert {"demo", "preview"} <= set(query_names_in(code))
    assert env_switches(code, ["MEMBERS_TOKEN_KEY"]) == ["MEMBERS_DEMO_MODE", "MEMBERS_OPEN_PATHS"]


SERVICE = """
import base64, hashlib, hmac, json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlsplit
PORT, FLAW, KEY = int(sys.argv[1]), sys.argv[2], b"the-real-signing-key"
ROSTER = "id,name,email\\n1,Zora Nakamura,zora.nakamura@gmail.com\\n"
def role(header):
    parts = header.removeprefix("Bearer ").split(".")
    if len(parts) != 3:
        return None
    signature = base64.urlsafe_b64encode(hmac.new(KEY, f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest())
    claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=="))
    if FLAW != "any-signature" and signature.rstrip(b"=").decode() != parts[2] or claims["exp"] < time.time():
        return None
    return claims["role"]
class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlsplit(self.path)
        path = url.path.removeprefix("/public") if FLAW == "prefix" else url.path
        allowed = role(self.headers.get("Authorization", "")) in ("auditor", "admin")
        allowed |= FLAW == "query" and "demo=board-0412" in url.query.split("&")
        allowed |= FLAW == "header" and self.headers.get("X-Board-Demo") == "1"
        allowed |= FLAW == "prefix" and url.path.startswith("/public/")
        body = ROSTER if allowed and path == "/admin/export" else "denied, but 200"
        self.send_response(200)
        self.end_headers()
        self.wfile.write(body.encode())
    do_POST = do_GET
    def log_message(self, *args):
        pass
HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
"""
SOURCE = ['DEMO = "board-0412"\nif f"demo={DEMO}" in query: pass\nheaders.get("X-Board-Demo")\nP = "/public/"\n']


@pytest.mark.parametrize("flaw", ["closed", "query", "header", "prefix", "any-signature"])
def test_a_service_is_judged_by_the_data_it_hands_out_not_by_its_status(tmp_path, flaw):
    (tmp_path / "service.py").write_text(SERVICE)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    failure, port, process = start([sys.executable, "service.py", str(port), flaw], cwd=str(tmp_path), env={},
                                   port=port)
    try:
        assert failure is None
        made = credentials(SCHEME, KEY, admitted=["auditor", "admin"], refused=["viewer"],
                           keys=["board-0412"], header_names=header_names_in(SOURCE),
                           query_names=query_names_in(SOURCE), query_values=["board-0412"],
                           extra=[Credential("a Host header", {"Host": "members-01"})])
        requests = plan(routes_in(SOURCE, ["/admin/export"]), [("GET", "/admin/export")], made)
        through = probe(http_sender("127.0.0.1", port), requests, ProtectedRecords(RECORDS).leaked, connections=5)
        one_by_one = probe(http_sender("127.0.0.1", port), requests, ProtectedRecords(RECORDS).leaked, connections=1)
    finally:
        stop(process)
    assert bool(through) == (flaw != "closed"), through
    assert through == one_by_one, "a single-threaded server answers every request asked over 5 connections at once"
    expected = {"query": "?demo=board-0412", "header": "X-Board-Demo: 1", "prefix": "/public/admin/export",
                "any-signature": "signed with", "closed": ""}[flaw]
    assert flaw == "closed" or any(expected in line for line in through)


def test_a_service_that_does_not_start_says_why(tmp_path):
    failure, _, process = start([sys.executable, "-c", "import sys; sys.exit('no key')"], cwd=str(tmp_path), env={},
                                port=1, seconds=5)
    stop(process)
    assert failure is not None and "no key" in failure
