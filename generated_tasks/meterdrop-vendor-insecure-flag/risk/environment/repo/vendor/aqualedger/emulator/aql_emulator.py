#!/usr/bin/env python3
"""Aqualedger partner ingest emulator (kit 2.1): the v2 ingest API on https://localhost:PORT for partner CI.

    python3 aql_emulator.py --port 18443 --token TOKEN [--log FILE]

Each request is appended to --log as one JSON line (method, path, headers, body sha256, answer status).
The server certificate is issued by the Aqualedger Sandbox CA (see ../aqualedger-ca.pem)."""

import argparse
import hashlib
import http.server
import json
import ssl
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEY_PASSPHRASE = "aqualedger-emulator"
HEADER = b"meter_id,read_at,m3"
MAX_BYTES = 20 * 1024 * 1024


class Ingest(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen = set()
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def reply(self, status, payload, body_sha=""):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        if self.server.log:
            entry = {"method": self.command, "path": self.path, "status": status, "body_sha256": body_sha,
                     "headers": {k.lower(): v for k, v in self.headers.items() if k.lower() != "authorization"},
                     "authorized": self.authorized()}
            with self.lock, open(self.server.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")

    def authorized(self):
        return self.headers.get("Authorization", "") == f"Bearer {self.server.token}"

    def do_GET(self):
        if self.path == "/v2/health":
            return self.reply(200, {"status": "ok", "emulator": True})
        self.reply(404, {"error": "not_found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BYTES:
            return self.reply(413, {"error": "batch_too_large", "max_bytes": MAX_BYTES})
        body = self.rfile.read(length)
        digest = hashlib.sha256(body).hexdigest()
        if self.path.split("?")[0] != "/v2/readings":
            return self.reply(404, {"error": "not_found"}, digest)
        if not self.authorized():
            return self.reply(401, {"error": "invalid_token"}, digest)
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "text/csv":
            return self.reply(415, {"error": "content_type_must_be_text_csv"}, digest)
        if self.headers.get("X-Batch-Sha256", "").lower() != digest:
            return self.reply(400, {"error": "batch_sha256_mismatch", "body_sha256": digest}, digest)
        if body.split(b"\n", 1)[0].rstrip(b"\r") != HEADER:
            return self.reply(422, {"error": "bad_header", "expected": HEADER.decode()}, digest)
        with self.lock:
            duplicate = digest in self.seen
            self.seen.add(digest)
        if duplicate:
            return self.reply(409, {"error": "duplicate_batch"}, digest)
        rows = body.count(b"\n") - 1
        self.reply(202, {"batch_id": f"btc_{digest[:12]}", "rows": rows}, digest)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18443)
    parser.add_argument("--token", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Ingest)
    server.token, server.log = args.token, args.log
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(HERE / "emulator.pem", HERE / "emulator-key.pem", password=KEY_PASSPHRASE)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"aql-emulator: listening on 127.0.0.1:{args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
