"""GET /documents/{document_id}/assets/{name}?namespace=NS: an image asset of a document, for `docshelf serve`'s
page, whose results link image chunks here (a file path means nothing to a browser). Authorised like every route;
the asset is read from the document's own asset folder, so a document cannot reach another's. On AWS results link
short-lived presigned URLs instead and this route answers 404."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote

from aws_lambda_powertools.event_handler import Response

from docshelf.api.errors import NotFoundError
from docshelf.api.requests import RouteContext, namespace_param, new_router
from docshelf.api.responses import validated
from docshelf.api.routes_source import SOURCE_POLICY, served_record
from docshelf.api.schemas import DOCUMENT_ID
from docshelf.model import Chunk, is_asset_ref

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg"}  # what assets are stored as (docshelf.assets)


class AssetReader(Protocol):
    def __call__(self, namespace: str, document_id: str, name: str) -> bytes | None: ...


def served_asset_link(chunk: Chunk, name: str) -> str:
    """Where `docshelf serve` answers an image chunk's asset (the results' `asset`)."""
    path = f"/documents/{quote(chunk.document_id, safe='')}/assets/{quote(name, safe='')}"
    return f"{path}?namespace={quote(chunk.namespace, safe='')}"


def asset_router(context: RouteContext) -> APIGatewayHttpRouter:
    router = new_router()

    @router.get("/documents/<document_id>/assets/<name>")
    def asset_route(document_id: str, name: str) -> Response[bytes]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        event = router.current_event
        namespace = namespace_param(event)
        api = context.services()
        served_record(api, context.caller(event), namespace, document_id)
        reader: AssetReader | None = getattr(api, "asset_reader", None)
        data = reader(namespace, document_id, name) if is_asset_ref(name) and reader is not None else None
        if data is None:
            raise NotFoundError(f"no asset {name} of document {document_id} in namespace {namespace}")
        media_type = IMAGE_TYPES.get(name.rsplit(".", 1)[-1].lower(), "application/octet-stream")
        headers = {"Content-Security-Policy": SOURCE_POLICY, "Cache-Control": "private, max-age=3600"}
        return Response(200, media_type, data, headers=headers)

    return router
