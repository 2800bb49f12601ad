"""`PUT /uploads?namespace=NS&filename=F` of `docshelf serve`: the file's bytes as the body, the same bearer token
as every route. The upload URL POST /documents gives locally; on AWS the upload goes to S3 instead.

It is answered before the resolver, whose requests are bounded at 16 KiB: an upload may be as large as the
store's `max_bytes`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import parse_qs

from docshelf.api.auth import Caller
from docshelf.api.errors import ApiError, BadRequestError, PayloadTooLargeError
from docshelf.api.ingress import checked_filename
from docshelf.api.schemas import NAMESPACE_REGEX
from docshelf.local.upload_signing import UploadSigner
from docshelf.pipeline import IngestResult

UPLOADS_PATH = "/uploads"


class LengthRequiredError(ApiError):
    status = 411


class UploadSink(Protocol):
    @property
    def max_upload_bytes(self) -> int: ...

    def store_upload(self, namespace: str, filename: str, data: bytes) -> IngestResult: ...


def upload(sink: UploadSink, caller: Callable[[], Caller], query: str, environ: dict[str, Any]) -> tuple[int, bytes]:
    """(status, JSON body): 201 with the stored file's document (`UploadedOut`). A presigned URL (with a
    `signature`, local/upload_signing.py) authorizes itself and must get the type and size it was signed for; one
    without takes the bearer token."""
    namespace, filename = _parameters(query)
    params = {name: values[0] for name, values in parse_qs(query, keep_blank_values=True).items()}
    signer: UploadSigner | None = getattr(sink, "upload_signer", None)
    if "signature" in params and signer is not None:
        signer.verify(params, str(environ.get("CONTENT_TYPE") or ""), _length(environ))
    else:
        caller().authorize(namespace)
    data = _body(environ, sink.max_upload_bytes)
    return 201, json.dumps(uploaded_payload(sink.store_upload(namespace, filename, data)), ensure_ascii=False).encode()


def uploaded_payload(result: IngestResult) -> dict[str, Any]:
    """The stored file's document under the names every response uses (`chunk_count`, `source_key`)."""
    return {
        "document_key": f"{result.namespace}/{result.source_key}",
        "namespace": result.namespace,
        "document_id": result.document_id,
        "source_key": result.source_key,
        "status": result.status,
        "chunk_count": result.chunks,
        "error_code": result.error_code,
        "error_message": result.error_message,
    }


def _parameters(query: str) -> tuple[str, str]:
    values = parse_qs(query, keep_blank_values=True)
    namespace, filename = values.get("namespace", [""]), values.get("filename", [""])
    if len(namespace) != 1 or len(filename) != 1:
        raise BadRequestError("give namespace and filename once each")
    if not re.fullmatch(NAMESPACE_REGEX, namespace[0]):
        raise BadRequestError(f"namespace {namespace[0]!r} must match {NAMESPACE_REGEX}")
    return namespace[0], checked_filename(filename[0])


def _length(environ: dict[str, Any]) -> int:
    raw = environ.get("CONTENT_LENGTH")
    if not raw:
        raise LengthRequiredError("an upload needs a Content-Length")
    try:
        return int(raw)
    except ValueError:
        raise BadRequestError("Content-Length is not a number") from None


def _body(environ: dict[str, Any], limit: int) -> bytes:
    length = _length(environ)
    if length > limit:
        raise PayloadTooLargeError(f"the upload is {length} bytes, over the limit of {limit}")
    data: bytes = environ["wsgi.input"].read(length)
    if len(data) != length:
        raise BadRequestError(f"the body ended after {len(data)} of {length} bytes")
    return data
