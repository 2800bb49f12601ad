"""`PUT /uploads?namespace=NS&filename=F` of `docshelf serve`: the file's bytes as the body, the same bearer token
as every route. The upload URL POST /documents gives locally; on AWS the upload goes to S3 instead.

It is answered before the resolver, whose requests are bounded at 16 KiB: an upload may be as large as the
store's `max_bytes`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, Protocol
from urllib.parse import parse_qs

from docshelf.api.auth import Caller
from docshelf.api.errors import ApiError, BadRequestError, PayloadTooLargeError
from docshelf.api.ingress import checked_filename
from docshelf.api.schemas import NAMESPACE_REGEX
from docshelf.pipeline import IngestResult

UPLOADS_PATH = "/uploads"


class LengthRequiredError(ApiError):
    status = 411


class UploadSink(Protocol):
    @property
    def max_upload_bytes(self) -> int: ...

    def store_upload(self, namespace: str, filename: str, data: bytes) -> IngestResult: ...


def upload(sink: UploadSink, caller: Callable[[], Caller], query: str, environ: dict[str, Any]) -> tuple[int, bytes]:
    """(status, JSON body): 201 with the ingest result of the stored file."""
    namespace, filename = _parameters(query)
    caller().authorize(namespace)
    data = _body(environ, sink.max_upload_bytes)
    result = sink.store_upload(namespace, filename, data)
    payload = {"document_key": f"{namespace}/{filename}", **asdict(result)}
    return 201, json.dumps(payload, ensure_ascii=False).encode()


def _parameters(query: str) -> tuple[str, str]:
    values = parse_qs(query, keep_blank_values=True)
    namespace, filename = values.get("namespace", [""]), values.get("filename", [""])
    if len(namespace) != 1 or len(filename) != 1:
        raise BadRequestError("give namespace and filename once each")
    if not re.fullmatch(NAMESPACE_REGEX, namespace[0]):
        raise BadRequestError(f"namespace {namespace[0]!r} must match {NAMESPACE_REGEX}")
    return namespace[0], checked_filename(filename[0])


def _body(environ: dict[str, Any], limit: int) -> bytes:
    raw = environ.get("CONTENT_LENGTH")
    if not raw:
        raise LengthRequiredError("an upload needs a Content-Length")
    try:
        length = int(raw)
    except ValueError:
        raise BadRequestError("Content-Length is not a number") from None
    if length > limit:
        raise PayloadTooLargeError(f"the upload is {length} bytes, over the limit of {limit}")
    data: bytes = environ["wsgi.input"].read(length)
    if len(data) != length:
        raise BadRequestError(f"the body ended after {len(data)} of {length} bytes")
    return data
