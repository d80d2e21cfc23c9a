import unittest

from stockroom.config import server_port


class ServerPortTest(unittest.TestCase):
    def test_default(self):
        self.assertEqual(server_port({}), 8080)

    def test_override(self):
        self.assertEqual(server_port({"STOCKROOM_PORT": "9100"}), 9100)
