from tests.support import ServerTestCase


class VersionTest(ServerTestCase):
    def test_head(self):
        status, body = self.get("/version")
        self.assertEqual(status, 200)
        self.assertEqual((body["sha"], body["subject"]), (self.shas["Fix rounding"], "Fix rounding"))


class TagsTest(ServerTestCase):
    def test_newest_first(self):
        status, body = self.get("/tags")
        self.assertEqual(status, 200)
        self.assertEqual([t["name"] for t in body["tags"]], ["v1.1.0", "v1.0.0"])
        self.assertEqual(body["tags"][1]["date"], "2026-01-05")


class RoutingTest(ServerTestCase):
    def test_unknown_path(self):
        self.assertEqual(self.get("/nope")[0], 404)

    def test_health(self):
        self.assertEqual(self.get("/healthz"), (200, {"ok": True}))
