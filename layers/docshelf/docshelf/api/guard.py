"""Checks on the raw request before any parsing: body size, UTF-8, JSON nesting depth, control characters.

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


def check_event(event: Mapping[str, Any]) -> None:
    """Raise 413 for an oversized body; 400 for one that is not JSON-typed, not UTF-8, or nested too deep."""
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
