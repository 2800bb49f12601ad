"""The client factory: plain HTTP for local URLs, SigV4 for AWS endpoints (checked offline, fake credentials)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
import requests
from botocore.credentials import Credentials

from docshelf.errors import IndexBackendError
from docshelf.index.opensearch.client import aws_endpoint, opensearch_client

FAKE = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "session-token")


def _connection(client: Any) -> Any:
    return client.transport.get_connection()


def _signed_headers(client: Any, method: str, url: str, body: bytes | None) -> dict[str, str]:
    """Signs a request the way the client's connection would, without sending it."""
    auth = _connection(client).session.auth
    prepared = requests.Request(method, url, data=body, headers={"Content-Type": "application/json"}).prepare()
    signed: requests.PreparedRequest = auth(prepared)
    return {key: value if isinstance(value, str) else value.decode() for key, value in signed.headers.items()}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://search-docs-abc123.eu-west-1.es.amazonaws.com", ("eu-west-1", "es")),
        ("https://x1y2z3.us-east-1.aoss.amazonaws.com:443", ("us-east-1", "aoss")),
        ("https://vpc-docs-1.ap-southeast-2.es.amazonaws.com/", ("ap-southeast-2", "es")),
        ("http://127.0.0.1:9200", None),
        ("https://opensearch.example.com", None),
    ],
)
def test_aws_endpoints_are_recognised(url: str, expected: tuple[str, str] | None) -> None:
    assert aws_endpoint(url) == expected


def test_local_url_gets_a_plain_client() -> None:
    client = opensearch_client("http://127.0.0.1:9200")
    connection = _connection(client)
    assert connection.host == "http://127.0.0.1:9200"
    assert "authorization" not in {key.lower() for key in connection.headers}


def test_bad_url_is_rejected() -> None:
    with pytest.raises(IndexBackendError, match="not an OpenSearch URL"):
        opensearch_client("localhost:9200")


def test_aoss_requests_are_signed_with_the_payload_hash() -> None:
    url = "https://abc123.us-east-1.aoss.amazonaws.com"
    client = opensearch_client(url, credentials=FAKE)
    body = b'{"query":{"match_all":{}}}'
    headers = _signed_headers(client, "POST", f"{url}/docshelf-chunks/_search", body)
    authorization = headers["Authorization"]
    assert re.fullmatch(
        r"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\d{8}/us-east-1/aoss/aws4_request, "
        r"SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}",
        authorization,
    )
    signed_headers = authorization.split("SignedHeaders=")[1].split(",")[0].split(";")
    assert {"host", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"} <= set(signed_headers)
    assert re.fullmatch(r"\d{8}T\d{6}Z", headers["X-Amz-Date"])
    assert headers["X-Amz-Content-SHA256"] == hashlib.sha256(body).hexdigest()
    assert headers["X-Amz-Security-Token"] == "session-token"


def test_managed_domain_is_signed_for_es_and_region_can_be_given() -> None:
    client = opensearch_client("https://search-docs.eu-west-1.es.amazonaws.com", credentials=FAKE)
    headers = _signed_headers(client, "GET", "https://search-docs.eu-west-1.es.amazonaws.com/_cluster/health", None)
    assert "/eu-west-1/es/aws4_request" in headers["Authorization"]
    assert "X-Amz-Date" in headers

    proxied = opensearch_client(
        "https://opensearch.internal:8443", region="us-west-2", service="aoss", credentials=FAKE
    )
    headers = _signed_headers(proxied, "GET", "https://opensearch.internal:8443/", None)
    assert "/us-west-2/aoss/aws4_request" in headers["Authorization"]
