import io
import json
import unittest
from unittest import mock
from urllib.parse import urlsplit

from tariffsync import client
from tariffsync.config import RatesConfig

CFG = RatesConfig(env="staging", host="rates.staging.kestrel.internal", port=8443, timeout=5, token="t0ken")


def fake_urlopen(answers, seen):
    def opener(request, *args, **kwargs):
        seen.append(request)
        return io.BytesIO(json.dumps(answers.pop(0)).encode())
    return opener


class FetchTariffsTest(unittest.TestCase):
    def test_sends_token_and_reads_tariffs(self):
        seen = []
        page = {"lane": "RTM-HAM", "tariffs": [{"carrier": "NORDLINK"}], "next_cursor": None}
        with mock.patch.object(client, "urlopen", fake_urlopen([page], seen)):
            tariffs = client.fetch_tariffs(CFG, "RTM-HAM")
        self.assertEqual(tariffs, [{"carrier": "NORDLINK"}])
        self.assertEqual(seen[0].get_header("Authorization"), "Bearer t0ken")
        url = urlsplit(seen[0].full_url)
        self.assertEqual((url.scheme, url.hostname, url.port), ("https", CFG.host, CFG.port))
        self.assertTrue(url.path.startswith("/v2/lanes/RTM-HAM/"))


if __name__ == "__main__":
    unittest.main()
