"""HTTP endpoints. Each route takes the repository path and the parsed query string and returns (status, body)."""

import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from shipnotes import gitcmd

log = logging.getLogger("shipnotes")


def healthz(repo: str, query: dict) -> tuple[int, dict]:
    return 200, {"ok": True}


def version(repo: str, query: dict) -> tuple[int, dict]:
    return 200, gitcmd.head(repo)


def tags(repo: str, query: dict) -> tuple[int, dict]:
    return 200, {"tags": gitcmd.tags(repo)}


ROUTES = {"/healthz": healthz, "/version": version, "/tags": tags}


class Handler(BaseHTTPRequestHandler):
    server_version = "shipnotes"

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        route = ROUTES.get(url.path)
        if route is None:
            self.reply(404, {"error": f"no such path: {url.path}"})
            return
        try:
            status, body = route(self.server.repo, parse_qs(url.query))
        except gitcmd.GitError as error:
            status, body = 400, {"error": str(error)}
        self.reply(status, body)

    def reply(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:
        log.info("%s %s", self.address_string(), format % args)


def make_server(repo: str, host: str = "127.0.0.1", port: int = 8340) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer((host, port), Handler)
    server.repo = repo
    return server
