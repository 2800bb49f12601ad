"""Short-lived signed links to a document's source file and image assets under `docshelf serve`, which open without
a token, as a presigned S3 GET does on AWS: for a chat UI, an `<img>` or a browser tab that sends no bearer header.

A link is the route's own path and query plus `expires` and an HMAC-SHA256 `signature` of them with the server's
key (made at start, so a restart invalidates every link). A signed request is answered as the caller the link was
made for would be, for that one namespace only (`local/wsgi.py`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from docshelf.api.errors import ForbiddenError

LINK_SECONDS = 3600  # longer than a cached search response (300 s by default), like ASSET_URL_SECONDS on AWS
SIGNATURE_PARAMETERS = ("expires", "signature")


@dataclass(frozen=True, slots=True)
class LinkSigner:
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    ttl_s: int = LINK_SECONDS
    clock: Callable[[], float] = time.time

    def signed(self, path: str, params: Mapping[str, str]) -> str:
        """`path?params&expires=..&signature=..`."""
        expires = str(int(self.clock()) + self.ttl_s)
        query = urlencode({**params, "expires": expires, "signature": self._signature(path, params, expires)})
        return f"{path}?{query}"

    def verify(self, path: str, params: Mapping[str, str]) -> None:
        """ForbiddenError unless `params` carry this path's signature and it has not expired."""
        expires = params.get("expires", "")
        given = {name: value for name, value in params.items() if name not in SIGNATURE_PARAMETERS}
        if not same_signature(self._signature(path, given, expires), params.get("signature", "")):
            raise ForbiddenError("the link's signature does not match")
        if not expires.isdigit() or self.clock() > int(expires):
            raise ForbiddenError("the link has expired: search again for a fresh one")

    def _signature(self, path: str, params: Mapping[str, str], expires: str) -> str:
        return hmac_signature(self.key, path, urlencode(sorted(params.items())), expires)


def hmac_signature(key: bytes, *fields: str) -> str:
    """HMAC-SHA256 of the fields, one a line, as hex."""
    return hmac.new(key, "\n".join(fields).encode(), hashlib.sha256).hexdigest()


def same_signature(expected: str, given: str) -> bool:
    """Whether a request carried the expected signature, in constant time; `given` may be any text (a request's
    non-ASCII value compares as bytes instead of raising)."""
    return hmac.compare_digest(expected.encode(), given.encode("utf-8", "surrogatepass"))


def is_signed(params: Mapping[str, str]) -> bool:
    return all(name in params for name in SIGNATURE_PARAMETERS)
