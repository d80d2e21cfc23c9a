"""A throwaway database built from the schema, and a way to call the app without a server."""

import io
import json
import os
import tempfile
import unittest

from fleetdesk import db
from fleetdesk.app import application


class AppTestCase(unittest.TestCase):
    ROWS = """
        INSERT INTO stations VALUES ('HBF', 'Hauptbahnhof'), ('KAN', 'Kanalstraße');
        INSERT INTO bikes VALUES ('SW-1', 'HBF', 'City 3', 1), ('SW-2', 'HBF', 'City 4', 1),
                                 ('SW-3', 'KAN', 'City 3', 1), ('SW-4', NULL, 'City 3', 0);
        INSERT INTO repairs (bike, done_on, mechanic, note) VALUES
            ('SW-1', '2026-03-01', 'Ines Duarte', 'Brake pads replaced'),
            ('SW-1', '2026-05-01', 'Kemal Aydin', 'New chain'),
            ('SW-3', '2026-04-01', 'Tobias Brandt', 'Puncture fixed');
    """

    def setUp(self):
        handle, self.path = tempfile.mkstemp(suffix=".db")
        os.close(handle)
        conn = db.connect(self.path)
        db.create_schema(conn)
        conn.executescript(self.ROWS)
        conn.commit()
        conn.close()
        self._old = os.environ.get("FLEETDESK_DB")
        os.environ["FLEETDESK_DB"] = self.path

    def tearDown(self):
        if self._old is None:
            os.environ.pop("FLEETDESK_DB", None)
        else:
            os.environ["FLEETDESK_DB"] = self._old
        os.unlink(self.path)

    def get(self, path: str, query: str = "") -> tuple[int, dict]:
        status = {}
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "wsgi.input": io.BytesIO()}
        body = b"".join(application(environ, lambda s, headers: status.setdefault("line", s)))
        return int(status["line"].split()[0]), json.loads(body)
