"""The client's signers: a bearer header (fixed or refreshed per request) and SigV4 over the exact request."""

from __future__ import annotations

import pytest

from docshelf.client import BearerToken, SigV4

botocore = pytest.importorskip("botocore")


def test_a_bearer_token_is_sent_as_is_or_fresh_from_its_callable() -> None:
    assert BearerToken("abc").headers("GET", "https://x/documents", b"", {}) == {"Authorization": "Bearer abc"}
    tokens = iter(["t1", "t2"])
    fresh = BearerToken(lambda: next(tokens))
    assert [fresh.headers("GET", "https://x/", b"", {})["Authorization"] for _ in range(2)] == [
        "Bearer t1",
        "Bearer t2",
    ]


def test_sigv4_signs_method_url_headers_and_body_for_execute_api() -> None:
    from botocore.credentials import Credentials

    signer = SigV4("eu-west-1", credentials=Credentials("AKIDEXAMPLE", "secret", "session"))
    url = "https://abc.execute-api.eu-west-1.amazonaws.com/search"
    headers = {"Content-Type": "application/json"}
    signed = signer.headers("POST", url, b'{"query":"a"}', headers)
    authorization = signed["Authorization"]
    assert authorization.startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    assert "/eu-west-1/execute-api/aws4_request" in authorization
    assert "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token" in authorization
    assert signed["X-Amz-Security-Token"] == "session" and signed["X-Amz-Date"]
    other_body = signer.headers("POST", url, b'{"query":"b"}', headers)["Authorization"]
    other_path = signer.headers("POST", url.replace("/search", "/documents"), b'{"query":"a"}', headers)
    assert other_body[-64:] != authorization[-64:] and other_path["Authorization"][-64:] != authorization[-64:]
