import json
import os
import tempfile
import threading
import unittest
import urllib.error
import urllib.request
from http.server import ThreadingHTTPServer

from hooks import config, server, store
from tests.test_signature import SECRET, legacy


def event(event_id: str, reference: str, status: str, at: str) -> bytes:
    return json.dumps({"id": event_id, "type": "parcel.status_changed",
                       "data": {"merchant_reference": reference, "status": status, "at": at}}).encode()


class ReceiverTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.mkdtemp()
        server.Handler.settings = config.Settings(0, os.path.join(folder, "s.db"), SECRET, True)
        server.Handler.db = store.connect(server.Handler.settings.database)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), server.Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.addCleanup(self.httpd.shutdown)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def post(self, body: bytes, headers: dict) -> int:
        request = urllib.request.Request(f"{self.base}/webhooks/skylane", data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def status_of(self, reference: str):
        try:
            with urllib.request.urlopen(f"{self.base}/shipments/{reference}", timeout=5) as response:
                return json.load(response)["status"]
        except urllib.error.HTTPError:
            return None

    def test_signed_delivery_applied(self):
        body = event("evt_a", "TP-7", "delivered", "2026-10-01T10:00:00Z")
        self.assertEqual(self.post(body, legacy(body)), 200)
        self.assertEqual(self.status_of("TP-7"), "delivered")

    def test_unsigned_delivery_refused(self):
        body = event("evt_b", "TP-8", "returned_to_sender", "2026-10-01T10:00:00Z")
        self.assertEqual(self.post(body, {}), 401)
        self.assertIsNone(self.status_of("TP-8"))

    def test_older_event_ignored(self):
        newer = event("evt_c", "TP-9", "delivered", "2026-10-01T12:00:00Z")
        older = event("evt_d", "TP-9", "in_transit", "2026-10-01T08:00:00Z")
        self.post(newer, legacy(newer))
        self.post(older, legacy(older))
        self.assertEqual(self.status_of("TP-9"), "delivered")
