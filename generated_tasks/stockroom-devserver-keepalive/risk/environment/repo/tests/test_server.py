import json
import threading
import unittest
import urllib.request

from stockroom.server import make_server


class ServerTest(unittest.TestCase):
    def setUp(self):
        self.server = make_server(port=0)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=5) as response:
            return json.load(response)

    def test_healthz(self):
        self.assertEqual(self.get("/healthz")["status"], "ok")

    def test_low_stock(self):
        self.assertEqual([item["sku"] for item in self.get("/items/low?below=8")], ["HNG-35", "WSH-M6"])
