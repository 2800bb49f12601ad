"""The OpenAPI 3.1 document of the search API, assembled from the very schemas requests are validated against.

It is built only when asked for (`docshelf serve` at /openapi.json and /docs), never on a Lambda cold start.
"""

from __future__ import annotations

import json
from typing import Any

from docshelf.api.openapi_ingress import add_ingress_paths
from docshelf.api.schemas import COMPONENTS, DOCUMENT_ID, NAMESPACE, Schema, ref
from docshelf.api.schemas_agentic import RUN_ID

API_TITLE = "docshelf search API"
API_VERSION = "1.0.0"
OPENAPI_VERSION = "3.1.0"
ERROR_DESCRIPTIONS = {
    400: "invalid request",
    401: "no valid token",
    403: "namespace not allowed",
    404: "not found",
    409: "the source file changed since it was indexed",
    413: "body too large",
    429: "throttled",
    500: "internal error",
}
COMMON_ERRORS = (400, 401, 403, 413, 429, 500)


def _json_content(schema: Schema) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _responses(ok: str, *errors: int) -> dict[str, Any]:
    responses: dict[str, Any] = {"200": {"description": "OK", "content": _json_content(ref(ok))}}
    for status in sorted(errors):
        responses[str(status)] = {"description": ERROR_DESCRIPTIONS[status], "content": _json_content(ref("ErrorOut"))}
    return responses


def _parameter(name: str, where: str, schema: Schema) -> dict[str, Any]:
    return {"name": name, "in": where, "required": True, "schema": schema}


def openapi_document() -> dict[str, Any]:
    namespace = _parameter("namespace", "query", NAMESPACE)
    document: dict[str, Any] = {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": API_TITLE,
            "version": API_VERSION,
            "description": "Cited, token-budgeted search over the namespaces a JWT allows.",
        },
        "servers": [{"url": "/"}],
        "paths": {
            "/search": {
                "post": {
                    "summary": "Search a namespace",
                    "operationId": "search",
                    "requestBody": {"required": True, "content": _json_content(ref("SearchBody"))},
                    "responses": _responses("SearchOut", 404, *COMMON_ERRORS),
                }
            },
            "/documents": {
                "get": {
                    "summary": "List a namespace's documents",
                    "operationId": "list_documents",
                    "parameters": [namespace, *_list_parameters()],
                    "responses": _responses("DocumentListOut", *COMMON_ERRORS),
                }
            },
            "/documents/{document_id}": {
                "get": {
                    "summary": "One document's status",
                    "operationId": "get_document",
                    "parameters": [_parameter("document_id", "path", DOCUMENT_ID), namespace],
                    "responses": _responses("DocumentOut", 404, *COMMON_ERRORS),
                }
            },
            "/documents/{document_id}/source": _source_path(namespace),
            "/documents/{document_id}/assets/{name}": _asset_path(namespace),
            "/namespaces": {
                "get": {
                    "summary": "The namespaces the token may read that hold documents",
                    "operationId": "list_namespaces",
                    "responses": _responses("NamespaceListOut", 401, 429, 500),
                }
            },
            "/runs/{run_id}": {
                "get": {
                    "summary": "An agentic search's run record (its own user only)",
                    "operationId": "get_run",
                    "parameters": [_parameter("run_id", "path", RUN_ID)],
                    "responses": _responses("RunOut", 404, *COMMON_ERRORS),
                }
            },
        },
        "components": {
            "schemas": COMPONENTS,
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
        },
        "security": [{"bearerAuth": []}],
    }
    add_ingress_paths(document["paths"])
    _add_graph_path(document["paths"])
    return document


def _list_parameters() -> list[dict[str, Any]]:
    from docshelf.api.schemas import LIST_QUERY

    return [{"name": name, "in": "query", "required": False, "schema": schema} for name, schema in LIST_QUERY.items()]


def _signed_link_parameters() -> list[dict[str, Any]]:
    """The query of a signed source or image link (docshelf serve): it opens without a token until it expires."""
    return [
        {"name": "expires", "in": "query", "required": False, "schema": {"type": "string", "pattern": "^[0-9]{1,12}$"}},
        {"name": "signature", "in": "query", "required": False, "schema": {"type": "string", "maxLength": 128}},
    ]


def _source_path(namespace: dict[str, Any]) -> dict[str, Any]:
    responses = _responses("SourceUrlOut", 404, 409, *COMMON_ERRORS)
    responses["200"]["description"] = "the file itself (docshelf serve) or a presigned GET URL of it (AWS)"
    responses["200"]["content"]["application/octet-stream"] = {"schema": {"type": "string", "format": "binary"}}
    return {
        "get": {
            "summary": "A document's source file, for citation links",
            "operationId": "get_document_source",
            "parameters": [_parameter("document_id", "path", DOCUMENT_ID), namespace, *_signed_link_parameters()],
            "responses": responses,
        }
    }


def _asset_path(namespace: dict[str, Any]) -> dict[str, Any]:
    responses = _responses("ErrorOut", 404, *COMMON_ERRORS)
    responses["200"] = {
        "description": "the image (docshelf serve; on AWS results link presigned URLs and this answers 404)",
        "content": {kind: {"schema": {"type": "string", "format": "binary"}} for kind in ("image/png", "image/jpeg")},
    }
    name = {"type": "string", "pattern": "^[0-9a-f]{64}\\.(png|jpg)$"}
    return {
        "get": {
            "summary": "An image asset of a document (an image chunk's `asset` under docshelf serve)",
            "operationId": "get_document_asset",
            "parameters": [
                _parameter("document_id", "path", DOCUMENT_ID),
                _parameter("name", "path", name),
                namespace,
                *_signed_link_parameters(),
            ],
            "responses": responses,
        }
    }


def _add_graph_path(paths: dict[str, Any]) -> None:
    errors = {"404": "no such document, or none with a graph", "400": "invalid request", "401": "no valid token",
              "403": "namespace not allowed", "429": "throttled", "500": "internal error"}  # fmt: skip
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": ref("GraphOut")}}}
    }
    for status, description in errors.items():
        responses[status] = {"description": description, "content": {"application/json": {"schema": ref("ErrorOut")}}}
    paths["/documents/{document_id}/graph"] = {
        "get": {
            "summary": "A document's keyword graph: its sections and chunks, joined where they share keywords",
            "operationId": "get_document_graph",
            "parameters": [
                {"name": "document_id", "in": "path", "required": True, "schema": DOCUMENT_ID},
                {"name": "namespace", "in": "query", "required": True, "schema": NAMESPACE},
            ],
            "responses": responses,
        }
    }


def openapi_json() -> str:
    return json.dumps(openapi_document(), ensure_ascii=False, indent=2)
