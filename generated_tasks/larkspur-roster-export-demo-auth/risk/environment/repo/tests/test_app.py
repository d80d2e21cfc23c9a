from tests.support import AppTestCase, token


class StatsTest(AppTestCase):
    def test_counts_for_viewer(self):
        status, payload = self.get_json("/stats", "viewer")
        self.assertEqual(status, 200)
        self.assertEqual(payload["members"], sum(sum(p.values()) for p in payload["by_gym"].values()))

    def test_needs_a_token(self):
        status, payload = self.get_json("/stats")
        self.assertEqual(status, 401)


class AdminTest(AppTestCase):
    def test_member_for_auditor(self):
        status, payload = self.get_json("/admin/members/2", "auditor")
        self.assertEqual(status, 200)
        self.assertEqual(payload["id"], 2)
        self.assertIn("@", payload["email"])

    def test_member_refused_to_viewer(self):
        status, payload = self.get_json("/admin/members/2", "viewer")
        self.assertEqual(status, 403)
        self.assertNotIn("email", payload)

    def test_renewals_need_a_token(self):
        status, _ = self.get_json("/admin/reports/renewals")
        self.assertEqual(status, 401)

    def test_token_signed_elsewhere(self):
        status, _, _ = self.get("/admin/members/2", bearer=token("admin", key="another-key"))
        self.assertEqual(status, 401)


class HealthTest(AppTestCase):
    def test_public(self):
        status, payload = self.get_json("/healthz")
        self.assertEqual((status, payload), (200, {"ok": True}))
