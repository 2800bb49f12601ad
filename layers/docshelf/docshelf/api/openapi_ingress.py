"""The OpenAPI operations of uploads, deletes and URL ingestion, added to `api/openapi.py`'s paths."""

from __future__ import annotations

from typing import Any

from docshelf.api.schemas import DOCUMENT_ID, NAMESPACE, ref

_ERRORS = {
    400: "invalid request",
    401: "no valid token",
    403: "namespace not allowed",
    404: "not found",
    411: "no Content-Length",
    413: "over the size limit",
    429: "throttled",
    500: "internal error",
    501: "not offered by this deployment",
}


def _json_of(name: str) -> dict[str, Any]:
    return {"application/json": {"schema": ref(name)}}


def _body(name: str) -> dict[str, Any]:
    return {"required": True, "content": _json_of(name)}


def _responses(status: int, description: str, schema: str, *errors: int) -> dict[str, Any]:
    json_of = _json_of
    responses: dict[str, Any] = {str(status): {"description": description, "content": json_of(schema)}}
    for error in sorted({400, 401, 403, 429, 500, 501, *errors}):
        responses[str(error)] = {"description": _ERRORS[error], "content": json_of("ErrorOut")}
    return responses


def add_ingress_paths(paths: dict[str, Any]) -> None:
    body = _body
    paths.setdefault("/documents", {})["post"] = {
        "summary": "Where to upload a file: a presigned S3 PUT on AWS, PUT /uploads under docshelf serve",
        "operationId": "upload_document",
        "requestBody": body("UploadBody"),
        "responses": _responses(201, "Created", "UploadOut", 413),
    }
    paths.setdefault("/documents/{document_id}", {})["delete"] = {
        "summary": "Delete a document (its chunks leave the index)",
        "operationId": "delete_document",
        "parameters": [
            {"name": "document_id", "in": "path", "required": True, "schema": DOCUMENT_ID},
            {"name": "namespace", "in": "query", "required": True, "schema": NAMESPACE},
        ],
        "responses": _responses(200, "OK", "DeleteOut", 404),
    }
    paths["/uploads"] = {"put": _uploads_operation()}
    paths["/ingest"] = {
        "post": {
            "summary": "Queue a web page (http or https, public addresses only) for ingestion",
            "operationId": "ingest_url",
            "requestBody": body("IngestBody"),
            "responses": _responses(202, "Accepted", "IngestOut"),
        }
    }


def _uploads_operation() -> dict[str, Any]:
    """docshelf serve's PUT /uploads: the URL POST /documents hands out there (on AWS a presigned S3 PUT instead)."""
    text = {"type": "string", "minLength": 1}
    parameters = [{"name": "namespace", "in": "query", "required": True, "schema": NAMESPACE}]
    parameters += [{"name": name, "in": "query", "required": True, "schema": text} for name in ("filename",)]
    parameters += [
        {"name": name, "in": "query", "required": False, "schema": text,
         "description": "signed by POST /documents: the upload needs no token, but exactly this type and size"}
        for name in ("content_type", "size", "expires", "signature")
    ]  # fmt: skip
    return {
        "summary": "Store and ingest a file (docshelf serve; the URL POST /documents answered)",
        "operationId": "put_upload",
        "parameters": parameters,
        "requestBody": {
            "required": True,
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
        },
        "responses": _responses(201, "Created", "UploadedOut", 411, 413),
    }
