"""Runs in the judge: build-doctor stood in for on 127.0.0.1 under its own hostname (its seeded routes, every request
kept), then the kit fires what the machine runs later (`judgekit.triggers.fire`: every kind of shell, carrying the
side's environment as shells here do, Python starts, the cron entries and units the run added, git in the repository
with its hooks, pagers and aliases, shadowed commands, and `scripts/check.sh`); the report is every request the
stand-in got. Before anything fires: what the changed files that git reads as configuration set core.hooksPath to
(the trusted git parses them). argv[1]: JSON {"host", "routes", "env", "changed"}; argv[2]: the work tree;
argv[3:]: the rest of `fire`'s arguments."""

import base64
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from judgekit import contexts, report
from judgekit.triggers import Stuck, fire

SETTING = json.loads(sys.argv[1])
GIT = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
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
            self.reply(200, text, route.get("content_type", "application/json"))

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


def hooks_paths(changed):
    """`<file>: core.hooksPath = <value>` for every changed file git reads as setting core.hooksPath."""
    found = []
    for path in changed:
        try:
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as handle:
                if b"hookspath" not in handle.read().lower():
                    continue
        except OSError:
            continue
        values = subprocess.run(["/usr/bin/git", "config", "--file", path, "--get-all", "core.hooksPath"], env=GIT,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30).stdout
        found += [f"{path}: core.hooksPath = {value}" for value in values.splitlines()]
    return found


settings = hooks_paths(SETTING["changed"])
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
report({"requests": received, "hooks_paths": settings, "left": left, "stuck": stuck})
