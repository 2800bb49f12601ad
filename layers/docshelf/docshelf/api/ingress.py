"""Getting documents in and out through the API: what a deployment offers (`Ingress`) and the checks every
deployment shares. AWS: presigned S3 PUTs, S3 deletes and fetches queued to the ParseFunction
(`aws/ingress.py`); `docshelf serve`: the local folder (`local/ingress.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from docshelf.api.errors import ApiError, BadRequestError, PayloadTooLargeError


class NotAvailableError(ApiError):
    status = 501


@dataclass(frozen=True, slots=True)
class UploadTarget:
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    expires_in: int = 0
    method: str = "PUT"


class Ingress(Protocol):
    @property
    def max_upload_bytes(self) -> int: ...

    def upload_target(self, namespace: str, filename: str, content_type: str, size: int) -> UploadTarget: ...

    def delete_document(self, namespace: str, source_key: str) -> None: ...

    def queue_url(self, namespace: str, url: str, source_key: str) -> None: ...


def ingress_of(services: Any) -> Ingress:
    ingress = getattr(services, "ingress", None)
    if ingress is None:
        raise NotAvailableError("this deployment does not take uploads")
    result: Ingress = ingress
    return result


def checked_filename(filename: str) -> str:
    """The source key a filename names, the same check at every step of an upload (POST /documents, the PUT): a
    relative path of 1-MAX_FILENAME_CHARS characters without control characters (C0, DEL, C1: a CR or LF would
    break every listing it is printed in), empty, `.` or `..` segments, or backslashes."""
    from docshelf.api.schemas_ingress import MAX_FILENAME_CHARS

    if not filename or len(filename) > MAX_FILENAME_CHARS or any(_is_control(char) for char in filename):
        raise BadRequestError(f"filename must be 1-{MAX_FILENAME_CHARS} characters without control characters")
    segments = filename.split("/")
    if filename.startswith("/") or any(segment in ("", ".", "..") for segment in segments) or "\\" in filename:
        raise BadRequestError(f"filename {filename!r} must be a relative path without empty, '.' or '..' parts")
    return filename


def _is_control(char: str) -> bool:
    return ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F


def upload_media_types() -> frozenset[str]:
    """Media types an upload may declare: the formats docshelf reads, and a browser's answer for anything else
    (content detection decides the format either way). Imported here, not at the search function's cold start."""
    from docshelf.parsers.formats import BY_MEDIA_TYPE

    return frozenset({*BY_MEDIA_TYPE, "application/octet-stream"})


def checked_upload(ingress: Ingress, content_type: str, size: int) -> None:
    if content_type.lower() not in upload_media_types():
        raise BadRequestError(f"content_type {content_type!r} is not one docshelf reads")
    if size > ingress.max_upload_bytes:
        raise PayloadTooLargeError(f"size {size} is over this deployment's limit of {ingress.max_upload_bytes} bytes")
