"""The stockroom HTTP API: `python3 -m stockroom.server`."""

import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from stockroom.config import data_path, server_port
from stockroom.inventory import load_items, low_stock


class Handler(BaseHTTPRequestHandler):
    items: list[dict] = []

    def log_message(self, format, *args):
        sys.stderr.write(f"stockroom: {self.command} {self.path} {args[1] if len(args) > 1 else ''}\n")

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/healthz":
            self.send_json(200, {"status": "ok", "items": len(self.items)})
        elif url.path == "/items":
            self.send_json(200, self.items)
        elif url.path == "/items/low":
            below = int(query.get("below", ["10"])[0])
            self.send_json(200, low_stock(self.items, below))
        else:
            self.send_json(404, {"error": "not found"})

    def send_json(self, status: int, payload) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def make_server(port: int | None = None) -> ThreadingHTTPServer:
    Handler.items = load_items(data_path())
    return ThreadingHTTPServer(("127.0.0.1", server_port() if port is None else port), Handler)


def main() -> None:
    server = make_server()
    print(f"stockroom: serving {len(Handler.items)} items on port {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
