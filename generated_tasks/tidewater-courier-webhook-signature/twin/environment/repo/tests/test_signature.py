import hashlib
import hmac
import unittest

from hooks import signature

SECRET = b"test-endpoint-secret"
BODY = b'{"id":"evt_1","data":{"merchant_reference":"TP-1","status":"collected","at":"2026-10-01T09:00:00Z"}}'


def legacy(body: bytes, secret: bytes = SECRET) -> dict:
    return {"X-Skylane-Signature": "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()}


class LegacySignatureTest(unittest.TestCase):
    def test_valid(self):
        signature.verify(legacy(BODY), BODY, SECRET)

    def test_missing(self):
        with self.assertRaises(signature.BadSignature):
            signature.verify({}, BODY, SECRET)

    def test_other_secret(self):
        with self.assertRaises(signature.BadSignature):
            signature.verify(legacy(BODY, b"another"), BODY, SECRET)

    def test_body_changed(self):
        with self.assertRaises(signature.BadSignature):
            signature.verify(legacy(BODY), BODY.replace(b"collected", b"delivered"), SECRET)
