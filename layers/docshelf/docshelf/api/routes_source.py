"""GET /documents/{document_id}/source?namespace=NS: the cited document's own file, for the page's citation links.

Authorised like every route (the caller's token must allow the namespace). The host's services decide how the file is
reached: on AWS a short-lived presigned GET of the source object (`{"url", "expires_in"}`), under `docshelf serve`
the bytes themselves, read from the folder the documents were ingested from and served only while they are the
indexed revision (their sha256). A served file never runs in the page's origin: anything but a PDF (which
Chromium's viewer cannot show sandboxed) is answered with a sandboxing Content-Security-Policy. A client that asks
for JSON gets, on both hosts, `{"url", "expires_in"}`: under `docshelf serve` a signed link that opens the file
without a token for an hour (local/link_signing.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote

from aws_lambda_powertools.event_handler import Response

from docshelf.api.auth import Caller
from docshelf.api.errors import ApiError, NotFoundError
from docshelf.api.links import absolute_url, wants_json
from docshelf.api.requests import RouteContext, namespace_param, new_router
from docshelf.api.responses import validated
from docshelf.api.schemas import DOCUMENT_ID
from docshelf.api.service import ApiServices
from docshelf.registry import DocumentRecord

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

SOURCE_POLICY = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'"
SERVED_STATUSES = frozenset({"ok", "partial", "needs_ocr", "failed"})


class SourceChangedError(ApiError):
    status = 409


@dataclass(frozen=True, slots=True)
class SourceBytes:
    data: bytes
    content_type: str


@dataclass(frozen=True, slots=True)
class SourceUrl:
    url: str
    expires_in: int


class LinkSigner(Protocol):
    """A host's signed links (`docshelf serve`: local/link_signing.py)."""

    @property
    def ttl_s(self) -> int: ...

    def signed(self, path: str, params: Mapping[str, str]) -> str: ...


class SourceOpener(Protocol):
    def __call__(self, record: DocumentRecord) -> SourceBytes | SourceUrl:
        """The file of a registered document; NotFoundError when it is gone, SourceChangedError when replaced."""


def source_router(context: RouteContext) -> APIGatewayHttpRouter:
    router = new_router()

    @router.get("/documents/<document_id>/source")
    def source_route(document_id: str) -> Response[str] | Response[bytes]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        event = router.current_event
        api = context.services()
        record = served_record(api, context.caller(event), namespace_param(event), document_id)
        opener: SourceOpener | None = getattr(api, "source_opener", None)
        if opener is None:
            raise NotFoundError("this server does not keep the documents' source files")
        answer = opener(record)
        signer: LinkSigner | None = getattr(api, "link_signer", None)
        if (
            signer is not None
            and wants_json(event.headers)
            and "signature" not in (event.query_string_parameters or {})
        ):
            link = signer.signed(f"/documents/{document_id}/source", {"namespace": record.namespace})
            answer = SourceUrl(absolute_url(link, event.headers), signer.ttl_s)  # the same answer as on AWS
        return source_response(answer, record.source_file_name)

    return router


def served_record(api: ApiServices, caller: Caller, namespace: str, document_id: str) -> DocumentRecord:
    """The document of a namespace the caller may read, while it has files to serve; NotFoundError otherwise."""
    caller.authorize(namespace)
    record = api.registry.get(namespace, document_id)
    if record is None or record.status not in SERVED_STATUSES:
        raise NotFoundError(f"no document {document_id} in namespace {namespace}")
    return record


def source_response(answer: SourceBytes | SourceUrl, filename: str) -> Response[str] | Response[bytes]:
    if isinstance(answer, SourceUrl):
        body = json.dumps({"url": answer.url, "expires_in": answer.expires_in})
        return Response(200, "application/json", body)
    headers = {"Content-Disposition": f"inline; filename*=UTF-8''{quote(filename)}"}
    if answer.content_type != "application/pdf":
        headers["Content-Security-Policy"] = SOURCE_POLICY
    return Response(200, answer.content_type, answer.data, headers=headers)
