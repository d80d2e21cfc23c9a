import io
import json
import os
import unittest
from unittest import mock

from members_api import tokens
from members_api.app import application

KEY = "test-signing-key"


def token(role: str, ttl: int = 600, key: str = KEY) -> str:
    return tokens.mint(f"test-{role}", role, ttl, key=key.encode())


class AppTestCase(unittest.TestCase):
    def setUp(self):
        patcher = mock.patch.dict(os.environ, {"MEMBERS_TOKEN_KEY": KEY})
        patcher.start()
        self.addCleanup(patcher.stop)

    def get(self, path: str, role: str | None = None, bearer: str | None = None):
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "", "wsgi.input": io.BytesIO()}
        if role or bearer:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {bearer or token(role)}"
        captured = {}

        def start_response(status, headers):
            captured["status"], captured["headers"] = int(status.split()[0]), dict(headers)

        body = b"".join(application(environ, start_response))
        return captured["status"], captured["headers"], body

    def get_json(self, path: str, role: str | None = None):
        status, _, body = self.get(path, role)
        return status, json.loads(body)
