"""A throwaway repository made with real git, and the server running on it in a thread."""

import json
import os
import subprocess
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

from shipnotes.server import make_server

ENV = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
       "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org"}


def run(repo: str, *args: str, date: str | None = None) -> str:
    env = {**ENV, **({"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date} if date else {})}
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True, env=env).stdout


class ServerTestCase(unittest.TestCase):
    COMMITS = [("Meter list", "2026-01-05T10:00:00", "v1.0.0"), ("CSV export", "2026-02-02T10:00:00", None),
               ("Tariff banner", "2026-02-20T10:00:00", "v1.1.0"), ("Fix rounding", "2026-03-01T10:00:00", None)]

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.repo = cls.scratch.name
        run(cls.repo, "init", "-q", "-b", "main")
        cls.shas = {}
        for subject, date, tag in cls.COMMITS:
            run(cls.repo, "commit", "-q", "--allow-empty", "-m", subject, date=date)
            cls.shas[subject] = run(cls.repo, "rev-parse", "HEAD").strip()
            if tag:
                run(cls.repo, "tag", "-a", tag, "-m", tag, date=date)
        cls.server = make_server(cls.repo, port=0)
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        cls.scratch.cleanup()

    def get(self, path: str) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
