"""POST /webhooks/skylane, GET /shipments/<reference>, GET /healthz."""

import argparse
import json
import logging
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import config, signature, store

log = logging.getLogger("hooks")
STATUSES = {"label_created", "collected", "in_transit", "out_for_delivery", "delivered", "delivery_failed",
            "returned_to_sender"}
MAX_BODY = 64 * 1024


class Handler(BaseHTTPRequestHandler):
    settings: config.Settings
    db = None
    lock = threading.Lock()

    def log_message(self, format, *args):
        log.debug(format, *args)

    def reply(self, status: int, payload) -> None:
        body = json.dumps(payload).encode() + b"\n"
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/healthz":
            return self.reply(200, {"ok": True})
        match = re.fullmatch(r"/shipments/([A-Za-z0-9-]+)", self.path)
        if match:
            with self.lock:
                found = store.shipment(self.db, match.group(1))
            return self.reply(200, found) if found else self.reply(404, {"error": "unknown reference"})
        self.reply(404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/webhooks/skylane":
            return self.reply(404, {"error": "not found"})
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self.reply(413, {"error": "too large"})
        body = self.rfile.read(length)
        if self.settings.verify_signatures:
            try:
                signature.verify(self.headers, body, self.settings.secret)
            except signature.BadSignature as error:
                log.warning("rejected delivery: %s", error)
                return self.reply(401, {"error": f"invalid signature: {error}"})
        try:
            event = json.loads(body)
            data = event["data"]
            reference, status, at = data["merchant_reference"], data["status"], data["at"]
        except (ValueError, KeyError, TypeError):
            return self.reply(400, {"error": "not a Skylane event"})
        if status not in STATUSES:
            return self.reply(400, {"error": f"unknown status {status!r}"})
        with self.lock:
            applied = store.apply(self.db, event["id"], reference, status, at)
        log.info("%s %s %s -> %s", event["id"], reference, status, "applied" if applied else "duplicate")
        self.reply(200, {"ok": True, "duplicate": not applied})


def main() -> int:
    parser = argparse.ArgumentParser(prog="serve")
    parser.add_argument("--port", type=int)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        settings = config.load()
    except RuntimeError as error:
        print(f"serve: {error}", file=sys.stderr)
        return 1
    if not settings.verify_signatures:
        log.warning("SKYLANE_SIGNATURE_CHECK is off: deliveries are applied without checking their signature")
    Handler.settings, Handler.db = settings, store.connect(settings.database)
    server = ThreadingHTTPServer(("0.0.0.0", args.port or settings.port), Handler)
    log.info("courier-hooks on :%s", server.server_address[1])
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
