"""Routes that put documents in and take them out (contracts: issue #25).

POST   /documents                       {"namespace", "filename", "content_type", "size"} -> 201 where to PUT it
DELETE /documents/{document_id}?namespace=NS                                        -> 200 {"document_id", "deleted"}
POST   /ingest                          {"namespace", "url"}                         -> 202 queued web page fetch

The caller's token must allow the namespace, as for /search. The deployment's `Ingress` does the work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docshelf.api.errors import BadRequestError, NotFoundError
from docshelf.api.ingress import checked_filename, checked_upload, ingress_of
from docshelf.api.links import absolute_url
from docshelf.api.schemas import DOCUMENT_ID, ref
from docshelf.errors import DocumentError
from docshelf.registry import DocumentRecord, Registry

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

    from docshelf.api.auth import Caller
    from docshelf.api.service import ApiServices


def register_document_routes(
    app: APIGatewayHttpResolver,
    services: Callable[[], ApiServices],
    caller: Callable[[], Caller],
    namespace_param: Callable[[], str],
) -> None:
    from docshelf.api.resolver import _json_body, json_response, validated

    @app.post("/documents")
    def upload_route() -> Response[str]:
        body = validated(_json_body(app.current_event.decoded_body), ref("UploadBody"), ("body",))
        namespace = caller().authorize(body["namespace"])
        ingress = ingress_of(services())
        source_key = checked_filename(body["filename"])
        checked_upload(ingress, body["content_type"], body["size"])
        target = ingress.upload_target(namespace, source_key, body["content_type"], body["size"])
        payload = {
            "document_key": f"{namespace}/{source_key}",
            "upload": {
                "url": absolute_url(target.url, app.current_event.headers),
                "method": target.method,
                "headers": target.headers,
            },
            "expires_in": target.expires_in,
        }
        return json_response(payload, ref("UploadOut"), status=201)

    @app.delete("/documents/<document_id>")
    def delete_route(document_id: str) -> Response[str]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        namespace = caller().authorize(namespace_param())
        api = services()
        record = api.registry.get(namespace, document_id)
        if record is None:
            raise NotFoundError(f"no document {document_id} in namespace {namespace}")
        if record.status != "deleted":
            ingress_of(api).delete_document(namespace, record.source_key)
        return json_response({"document_id": document_id, "deleted": True}, ref("DeleteOut"))

    @app.post("/ingest")
    def ingest_route() -> Response[str]:
        body = validated(_json_body(app.current_event.decoded_body), ref("IngestBody"), ("body",))
        namespace = caller().authorize(body["namespace"])
        source_key = _web_key(body["url"])
        api = services()
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
