import unittest

from members_api import tokens

KEY = b"k" * 32


class TokenTest(unittest.TestCase):
    def test_round_trip(self):
        claims = tokens.verify(tokens.mint("desk-leith", "admin", 60, key=KEY, now=1000), key=KEY, now=1030)
        self.assertEqual((claims["sub"], claims["role"]), ("desk-leith", "admin"))

    def test_expired(self):
        token = tokens.mint("mailer", "auditor", 60, key=KEY, now=1000)
        with self.assertRaisesRegex(tokens.InvalidToken, "expired"):
            tokens.verify(token, key=KEY, now=1061)

    def test_other_key(self):
        token = tokens.mint("mailer", "auditor", 60, key=b"x" * 32, now=1000)
        with self.assertRaisesRegex(tokens.InvalidToken, "signature"):
            tokens.verify(token, key=KEY, now=1001)

    def test_relabelled_role(self):
        prefix, claims, signature = tokens.mint("wall", "viewer", 60, key=KEY, now=1000).split(".")
        forged = tokens._encode(tokens._decode(claims).replace(b'"viewer"', b'"admin"'))
        with self.assertRaises(tokens.InvalidToken):
            tokens.verify(f"{prefix}.{forged}.{signature}", key=KEY, now=1001)

    def test_ttl(self):
        self.assertEqual(tokens.parse_ttl("6h"), 21600)
        self.assertEqual(tokens.parse_ttl("30m"), 1800)
