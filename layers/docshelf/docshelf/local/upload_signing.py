"""Presigned local uploads: what `docshelf serve` hands out for `PUT /uploads`, checked as S3 checks a presigned PUT.

The URL names the namespace, file, content type, size and expiry, and carries an HMAC-SHA256 signature of them with
the server's key (made at start, so a restart invalidates what it handed out); the PUT must send exactly that
Content-Type and Content-Length before it expires, or it is refused 403 as S3 refuses a PUT its signature does not
cover. A URL without a signature still takes the bearer token (the route's older form).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from docshelf.api.errors import ForbiddenError
from docshelf.local.link_signing import hmac_signature, same_signature

UPLOAD_URL_SECONDS = 900  # as long as the presigned S3 PUT on AWS


@dataclass(frozen=True, slots=True)
class SignedUpload:
    namespace: str
    filename: str
    content_type: str
    size: int


@dataclass(frozen=True, slots=True)
class UploadSigner:
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    ttl_s: int = UPLOAD_URL_SECONDS
    clock: Callable[[], float] = time.time

    def query(self, upload: SignedUpload) -> str:
        expires = int(self.clock()) + self.ttl_s
        fields = {
            "namespace": upload.namespace,
            "filename": upload.filename,
            "content_type": upload.content_type,
            "size": str(upload.size),
            "expires": str(expires),
        }
        return urlencode({**fields, "signature": self._signature(upload, expires)})

    def verify(self, params: Mapping[str, str], content_type: str, length: int) -> SignedUpload:
        """The upload the URL signed, once the request is the one it allows; ForbiddenError otherwise."""
        try:
            upload = SignedUpload(params["namespace"], params["filename"], params["content_type"], int(params["size"]))
            expires = int(params["expires"])
        except (KeyError, ValueError):
            raise ForbiddenError("the upload URL is incomplete: ask POST /documents for another") from None
        if not same_signature(self._signature(upload, expires), params.get("signature", "")):
            raise ForbiddenError("the upload URL's signature does not match")
        if self.clock() > expires:
            raise ForbiddenError("the upload URL has expired: ask POST /documents for another")
        if content_type.split(";")[0].strip().lower() != upload.content_type.lower():
            raise ForbiddenError(f"send Content-Type {upload.content_type}, as the upload URL was signed for")
        if length != upload.size:
            raise ForbiddenError(f"send exactly {upload.size} bytes, as the upload URL was signed for")
        return upload

    def _signature(self, upload: SignedUpload, expires: int) -> str:
        fields = (upload.namespace, upload.filename, upload.content_type, str(upload.size), str(expires))
        return hmac_signature(self.key, *fields)
