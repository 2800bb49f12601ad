"""Checks on the raw request before any parsing: body size, UTF-8, JSON nesting depth, text that is not Unicode.

They run on the API Gateway event, so the Lambda and `docshelf serve` refuse hostile input the same way, and
Powertools' validation only ever sees a small, well-formed, shallow JSON document.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any

from docshelf.api.errors import BadRequestError, PayloadTooLargeError
from docshelf.api.limits import MAX_BODY_BYTES, MAX_JSON_DEPTH

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def raw_body(event: Mapping[str, Any]) -> bytes:
    body = event.get("body")
    if body is None:
        return b""
    if len(body) > MAX_BODY_BYTES * 4 // 3 + 4:
        raise PayloadTooLargeError(f"the request body is larger than {MAX_BODY_BYTES} bytes")
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            raise BadRequestError("the request body is not valid base64") from None
    return str(body).encode("utf-8", "surrogatepass")


def json_depth(data: bytes) -> int:
    """How deeply arrays and objects nest, ignoring brackets inside strings."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_JSON_STRING.sub(b'""', data)):
        depth += 1 if match.group() in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest


def is_unicode_text(text: str) -> bool:
    """False for text no UTF-8 can carry: a lone surrogate such as the one a JSON `"\\ud800"` escape makes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_parameters(event: Mapping[str, Any]) -> None:
    """400 for a path, query or path parameter that is not Unicode text (the body is checked once parsed)."""
    http = (event.get("requestContext") or {}).get("http") or {}
    texts = [str(event.get("rawPath") or ""), str(http.get("path") or "")]
    for key in ("queryStringParameters", "pathParameters"):
        for name, value in (event.get(key) or {}).items():
            texts += [str(name), str(value)]
    if not all(is_unicode_text(text) for text in texts):
        raise BadRequestError("the URL holds text that is not valid Unicode (a lone surrogate)")


def check_event(event: Mapping[str, Any]) -> None:
    """Raise 413 for an oversized body; 400 for one that is not JSON-typed, not UTF-8, or nested too deep, and
    for parameters that are not Unicode text."""
    check_parameters(event)
    data = raw_body(event)
    if len(data) > MAX_BODY_BYTES:
        raise PayloadTooLargeError(f"the request body is larger than {MAX_BODY_BYTES} bytes")
    if not data:
        return
    headers = {str(name).lower(): str(value) for name, value in (event.get("headers") or {}).items()}
    content_type = headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise BadRequestError("send the request body as Content-Type: application/json")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequestError("the request body is not valid UTF-8") from None
    if json_depth(data) > MAX_JSON_DEPTH:
        raise BadRequestError(f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
