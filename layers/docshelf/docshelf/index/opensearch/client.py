"""An opensearch-py client for a URL: SigV4-signed for AWS endpoints, plain HTTP(S) otherwise."""

from __future__ import annotations

import re
from typing import Any, Literal
from urllib.parse import urlsplit

from docshelf.errors import IndexBackendError

AwsService = Literal["es", "aoss"]

# search-<domain>-<id>.<region>.es.amazonaws.com and <collection-id>.<region>.aoss.amazonaws.com
_AWS_HOST = re.compile(r"\.(?P<region>[a-z]{2}(?:-[a-z]+)+-\d)\.(?P<service>es|aoss)\.amazonaws\.com(?:\.cn)?$")
DEFAULT_TIMEOUT_SECONDS = 30


def aws_endpoint(url: str) -> tuple[str, AwsService] | None:
    """(region, service) when `url` names an Amazon OpenSearch domain or Serverless collection."""
    host = urlsplit(url).hostname or ""
    match = _AWS_HOST.search(host)
    if match is None:
        return None
    service: AwsService = "aoss" if match["service"] == "aoss" else "es"
    return match["region"], service


def opensearch_client(
    url: str,
    *,
    region: str | None = None,
    service: AwsService | None = None,
    credentials: Any = None,
    timeout: int = DEFAULT_TIMEOUT_SECONDS,
) -> Any:
    """A client for `url`. Requests are signed with SigV4 when the URL is an AWS endpoint or when a
    region is given; `credentials` default to the botocore chain (Lambda role, profile, environment)."""
    from opensearchpy import OpenSearch, RequestsAWSV4SignerAuth, RequestsHttpConnection

    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise IndexBackendError(f"not an OpenSearch URL: {url!r}")
    detected = aws_endpoint(url)
    if detected is None and region is None:
        return OpenSearch(hosts=[url], timeout=timeout)
    signing_region = region or (detected[0] if detected else "")
    signing_service: AwsService = service or (detected[1] if detected else "es")
    auth = RequestsAWSV4SignerAuth(credentials or _default_credentials(), signing_region, signing_service)
    return OpenSearch(
        hosts=[url],
        http_auth=auth,
        use_ssl=parts.scheme == "https",
        verify_certs=parts.scheme == "https",
        connection_class=RequestsHttpConnection,
        timeout=timeout,
        pool_maxsize=16,
    )


def _default_credentials() -> Any:
    import boto3

    credentials = boto3.Session().get_credentials()
    if credentials is None:
        raise IndexBackendError("no AWS credentials found to sign OpenSearch requests")
    return credentials
