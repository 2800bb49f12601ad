"""The documents of a namespace: listed, read, put in and taken out (contracts: issue #25).

GET    /documents?namespace=NS          every document of a namespace: status, revision, chunks, errors
GET    /documents/{document_id}?namespace=NS                                        one document
POST   /documents                       {"namespace", "filename", "content_type", "size"} -> 201 where to PUT it
DELETE /documents/{document_id}?namespace=NS                                        -> 200 {"document_id", "deleted"}
POST   /ingest                          {"namespace", "url"}                         -> 202 queued web page fetch

The caller's token must allow the namespace, as for /search. The deployment's `Ingress` does the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docshelf.api.errors import BadRequestError, NotFoundError
from docshelf.api.ingress import checked_filename, checked_upload, ingress_of
from docshelf.api.links import absolute_url
from docshelf.api.requests import RouteContext, json_body, namespace_param, new_router
from docshelf.api.responses import json_response, validated
from docshelf.api.schemas import DOCUMENT_ID, LIST_QUERY, ref
from docshelf.api.service import get_document, list_documents
from docshelf.errors import DocumentError
from docshelf.registry import DocumentRecord, Registry

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import Response
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter


def documents_router(context: RouteContext) -> APIGatewayHttpRouter:
    router = new_router()

    @router.get("/documents")
    def documents_route() -> Response[str]:
        event = router.current_event
        query = event.query_string_parameters or {}
        page = {name: validated(query[name], LIST_QUERY[name], ("query", name)) for name in LIST_QUERY if name in query}
        if "limit" in page:
            page["limit"] = int(page["limit"])
        listed = list_documents(context.services(), context.caller(event), namespace_param(event), **page)
        return json_response(listed, ref("DocumentListOut"))

    @router.get("/documents/<document_id>")
    def document_route(document_id: str) -> Response[str]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        event = router.current_event
        document = get_document(context.services(), context.caller(event), namespace_param(event), document_id)
        return json_response(document, ref("DocumentOut"))

    @router.post("/documents")
    def upload_route() -> Response[str]:
        event = router.current_event
        body = validated(json_body(event.decoded_body), ref("UploadBody"), ("body",))
        namespace = context.caller(event).authorize(body["namespace"])
        ingress = ingress_of(context.services())
        source_key = checked_filename(body["filename"])
        checked_upload(ingress, body["content_type"], body["size"])
        target = ingress.upload_target(namespace, source_key, body["content_type"], body["size"])
        payload = {
            "document_key": f"{namespace}/{source_key}",
            "upload": {
                "url": absolute_url(target.url, event.headers),
                "method": target.method,
                "headers": target.headers,
            },
            "expires_in": target.expires_in,
        }
        return json_response(payload, ref("UploadOut"), status=201)

    @router.delete("/documents/<document_id>")
    def delete_route(document_id: str) -> Response[str]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        event = router.current_event
        namespace = context.caller(event).authorize(namespace_param(event))
        api = context.services()
        record = api.registry.get(namespace, document_id)
        if record is None:
            raise NotFoundError(f"no document {document_id} in namespace {namespace}")
        if record.status != "deleted":
            ingress_of(api).delete_document(namespace, record.source_key)
        return json_response({"document_id": document_id, "deleted": True}, ref("DeleteOut"))

    @router.post("/ingest")
    def ingest_route() -> Response[str]:
        event = router.current_event
        body = validated(json_body(event.decoded_body), ref("IngestBody"), ("body",))
        namespace = context.caller(event).authorize(body["namespace"])
        source_key = _web_key(body["url"])
        api = context.services()
        ingress = ingress_of(api)
        queued = register_processing(api.registry, namespace, source_key)
        ingress.queue_url(namespace, body["url"], source_key)
        payload: dict[str, Any] = {
            "namespace": namespace,
            "url": body["url"],
            "document_key": f"{namespace}/{source_key}",
            "document_id": queued.document_id,
            "status": queued.status,
        }
        return json_response(payload, ref("IngestOut"), status=202)

    return router


def register_processing(registry: Registry, namespace: str, source_key: str) -> DocumentRecord:
    """The document's record as POST /ingest answers it: a new page is `processing` at once (written before the
    fetch is queued, and with no sequencer, so whatever the pipeline writes next replaces it); a page already
    known keeps its record, and its status, until the fetch lands."""
    from docshelf.ids import document_id

    found = registry.get(namespace, document_id(namespace, source_key))
    if found is not None:
        return found
    name = source_key.rsplit("/", 1)[-1]
    record = DocumentRecord(namespace, document_id(namespace, source_key), source_key, name, "processing")
    registry.put(record)
    return record


def _web_key(url: str) -> str:
    """The page's source key, once the URL is an http(s) URL whose host is not a refused IP literal (names are
    resolved and checked when the page is fetched)."""
    from docshelf.fetch.addresses import address_refusal
    from docshelf.fetch.fetcher import ip_literal, split_url
    from docshelf.pipeline.web_ingest import web_source_key

    try:
        _scheme, host, _port, _path = split_url(url)
        literal = ip_literal(host)
    except DocumentError as error:
        raise BadRequestError(error.message) from None
    reason = None if literal is None else address_refusal(literal)
    if reason is not None:
        raise BadRequestError(f"refused {url}: {host} is {reason}")
    return web_source_key(url)
