"""Signatures: HMAC-SHA256 over ``<timestamp>.<body>``, checked within a tolerance window."""

from __future__ import annotations

import hashlib
import hmac

from domain.webhooks.signing import sign, signed_headers, verify

SECRET = "whsec_test-secret-of-the-union"
BODY = '{"id":"d1","kind":"result.final","data":{"winner":"NS","级":"A"}}'.encode()
TS = 1_703_827_800  # 2023-12-29 13:30 Shanghai


def test_the_signature_is_the_hex_hmac_of_timestamp_dot_body() -> None:
    expected = hmac.new(SECRET.encode(), b"1703827800." + BODY, hashlib.sha256).hexdigest()
    assert sign(SECRET, BODY, timestamp=TS) == "sha256=" + expected
    # A fixed vector, so a receiver in another language can check its implementation against ours.
    assert sign("secret", b"{}", timestamp=0) == (
        "sha256=" + hmac.new(b"secret", b"0.{}", hashlib.sha256).hexdigest()
    )


def test_a_genuine_signature_verifies_within_the_window() -> None:
    signature = sign(SECRET, BODY, timestamp=TS)
    assert verify(SECRET, BODY, timestamp=str(TS), signature=signature, now=TS)
    assert verify(SECRET, BODY, timestamp=str(TS), signature=signature, now=TS + 300)
    assert verify(SECRET, BODY, timestamp=str(TS), signature=signature, now=TS - 300)  # clock skew


def test_anything_changed_fails() -> None:
    signature = sign(SECRET, BODY, timestamp=TS)
    assert not verify(SECRET, BODY + b" ", timestamp=str(TS), signature=signature, now=TS)
    assert not verify(SECRET + "x", BODY, timestamp=str(TS), signature=signature, now=TS)
    # the timestamp is signed: moving it to pass the window breaks the signature
    assert not verify(SECRET, BODY, timestamp=str(TS + 1), signature=signature, now=TS)
    assert not verify(SECRET, BODY, timestamp=str(TS), signature=signature.removeprefix("sha256="), now=TS)
    assert not verify(SECRET, BODY, timestamp=str(TS), signature=signature.upper(), now=TS)
    assert not verify(SECRET, BODY, timestamp=str(TS), signature="sha256=是", now=TS)


def test_an_old_or_future_or_malformed_timestamp_fails() -> None:
    signature = sign(SECRET, BODY, timestamp=TS)
    assert not verify(SECRET, BODY, timestamp=str(TS), signature=signature, now=TS + 301)
    assert not verify(SECRET, BODY, timestamp=str(TS), signature=signature, now=TS - 301)
    assert verify(SECRET, BODY, timestamp=str(TS), signature=signature, now=TS + 3600, tolerance_seconds=3600)
    for bad in ("", "-5", "1.5", "1703827800 ", "one"):
        assert not verify(SECRET, BODY, timestamp=bad, signature=signature, now=TS)


def test_the_headers_of_one_attempt() -> None:
    headers = signed_headers(SECRET, BODY, kind="result.final", delivery_id="d1", timestamp=TS)
    assert headers == {
        "Content-Type": "application/json",
        "X-Zhisai-Event": "result.final",
        "X-Zhisai-Delivery": "d1",
        "X-Zhisai-Timestamp": "1703827800",
        "X-Zhisai-Signature": sign(SECRET, BODY, timestamp=TS),
    }
