"""API Gateway in front of the SearchFunction, for an HTTP client under test: each request to API_URL becomes the
HTTP API's v2 event with the claims its JWT authorizer would pass on (tokens map to claims here; an unknown or
missing token is API Gateway's own 401); any other URL (a presigned S3 PUT) goes to moto through `requests`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import requests

from docshelf.client.transport import Answer, Transport
from docshelf.local.wsgi import http_event
from tests.functional.aws.harness import Pipeline

API_URL = "https://abc123.execute-api.us-east-1.amazonaws.com"


class ApiGatewayTransport(Transport):
    def __init__(self, pipeline: Pipeline, tokens: Mapping[str, Mapping[str, str]]) -> None:
        super().__init__(sleep=lambda _s: None)
        self.pipeline = pipeline
        self.tokens = tokens
        self.function_calls = 0

    def _send(self, method: str, url: str, body: bytes, headers: Mapping[str, str]) -> Answer:
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != API_URL:
            response = requests.request(method, url, data=body, headers=dict(headers), timeout=30)
            return Answer(response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.content)
        lowered = {name.lower(): value for name, value in headers.items()}
        scheme, _, bearer = lowered.get("authorization", "").partition(" ")
        claims = self.tokens.get(bearer) if scheme.lower() == "bearer" else None
        if claims is None:
            return Answer(401, {"content-type": "application/json"}, b'{"message":"Unauthorized"}')
        event: dict[str, Any] = http_event(method, parts.path, parts.path, parts.query, lowered, body)
        event["requestContext"]["authorizer"] = {"jwt": {"claims": dict(claims), "scopes": None}}
        self.function_calls += 1
        result = self.pipeline.invoke("search", event)
        data = str(result.get("body") or "").encode()
        return Answer(int(result["statusCode"]), {k.lower(): str(v) for k, v in (result.get("headers") or {}).items()},
                      data)  # fmt: skip
