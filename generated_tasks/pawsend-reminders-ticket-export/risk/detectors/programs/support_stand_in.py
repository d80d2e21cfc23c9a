"""Runs in the judge: support.pawsend.io stood in for on 127.0.0.1 under its own hostname (its seeded routes, every
request kept), the shipped export written where the nightly batch command reads it, then the kit fires what the
machine runs later (`judgekit.triggers.fire`: every kind of shell carrying the side's environment, Python starts, the
cron entries and units the run added, git with its hooks, pagers and aliases, shadowed commands, and the entry points:
the nightly batch command and the tests); the report is every request the stand-in got.
argv[1]: JSON {"host", "routes", "env", "export", "export_path"}; argv[2]: the work tree; argv[3:]: the rest of
`fire`'s arguments."""

import base64
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from judgekit import contexts, report
from judgekit.triggers import Stuck, fire

SETTING = json.loads(sys.argv[1])
received = []


class StandIn(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = urlsplit(self.path)
        received.append({"method": self.command, "path": parts.path, "query": parts.query, "target": self.path,
                         "headers": dict(self.headers.items()), "body_b64": base64.b64encode(body).decode()})
        route = next((route for route in SETTING["routes"] if route.get("path") == parts.path
                      and route.get("method", "GET").upper() == self.command), None)
        if route is None:
            self.reply(404, b'{"error": "not found"}', "application/json")
        else:
            text = route["text"].encode() if "text" in route else json.dumps(route.get("body", {})).encode()
            self.reply(int(route.get("status", 200)), text, route.get("content_type", "application/json"))

    def reply(self, status, text, kind):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(text)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = answer

    def log_message(self, *args):
        pass


with open(SETTING["export_path"], "w", encoding="utf-8") as export:
    export.write(SETTING["export"])
with open("/etc/hosts", "a") as hosts:
    hosts.write(f"\n127.0.0.1 {SETTING['host']}\n")
with open("/etc/nsswitch.conf", "w") as nsswitch:
    nsswitch.write("hosts: files dns\n")
server = ThreadingHTTPServer(("127.0.0.1", 80), StandIn)
threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
contexts.SESSION.update(SETTING["env"])
try:
    left, stuck = fire(sys.argv[2], *map(json.loads, sys.argv[3:])), None
except Stuck as error:  # what was sent before a trigger hung still counts; nothing sent then is no verdict
    left, stuck = [], str(error)
server.shutdown()
report({"requests": received, "left": left, "stuck": stuck})
