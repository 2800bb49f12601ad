"""The JSON Schemas of uploads, deletes and URL ingestion (`api/routes_documents.py`), added to the API's
components by `api/schemas.py`."""

from __future__ import annotations

from docshelf.api.schema_parts import NAMESPACE, NO_CONTROL_CHARACTERS_REGEX, Schema
from docshelf.api.schema_parts import closed as _closed

MAX_FILENAME_CHARS = 512
MAX_URL_CHARS = 2_048
# No control character at all (C0 with tab, CR and LF, DEL, C1): a file name is printed in listings and headers.
FILENAME_REGEX = r"^[^\x00-\x1f\x7f-\x9f]*$"
# type/subtype, as a browser's File.type gives it (parameters such as `; charset=` are not signed)
MEDIA_TYPE_REGEX = r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$"

UPLOAD_BODY = _closed(
    {
        "namespace": NAMESPACE,
        "filename": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_FILENAME_CHARS,
            "pattern": FILENAME_REGEX,
            "description": "The document's path in the namespace (`a/b.pdf`); no control characters, `..` or "
            "empty segments",
        },
        "content_type": {"type": "string", "maxLength": 255, "pattern": MEDIA_TYPE_REGEX},
        "size": {"type": "integer", "minimum": 1, "description": "bytes; at most the deployment's MaxFileBytes"},
    },
    description="Ask where to upload one file: the answer's URL accepts exactly this size and content type.",
)

UPLOAD_OUT = _closed(
    {
        "document_key": {"type": "string", "description": "<namespace>/<filename>"},
        "upload": _closed(
            {
                "url": {"type": "string"},
                "method": {"type": "string", "enum": ["PUT"]},
                "headers": {"type": "object", "additionalProperties": {"type": "string"}},
            }
        ),
        "expires_in": {"type": "integer"},
    }
)

INGEST_BODY = _closed(
    {
        "namespace": NAMESPACE,
        "url": {"type": "string", "minLength": 1, "maxLength": MAX_URL_CHARS, "pattern": NO_CONTROL_CHARACTERS_REGEX},
    },
    description="Fetch a web page (http or https, public addresses only) into a namespace, queued.",
)

INGEST_OUT = _closed(
    {
        "namespace": {"type": "string"},
        "url": {"type": "string"},
        "document_key": {"type": "string"},
        "document_id": {"type": "string", "description": "GET /documents/{document_id} follows the fetch"},
        "status": {
            "type": "string",
            "enum": ["processing", "ok", "partial", "failed", "needs_ocr", "deleted"],
            "description": "processing for a new page; a page fetched before keeps its status until this fetch lands",
        },
    }
)

DELETE_OUT = _closed({"document_id": {"type": "string"}, "deleted": {"type": "boolean"}})

UPLOADED_OUT = _closed(
    {
        "document_key": {"type": "string", "description": "<namespace>/<filename>"},
        "namespace": {"type": "string"},
        "document_id": {"type": "string"},
        "source_key": {"type": "string"},
        "status": {"type": "string", "enum": ["processing", "ok", "partial", "failed", "needs_ocr", "deleted"]},
        "chunk_count": {"type": "integer"},
        "error_code": {"type": "string"},
        "error_message": {"type": "string"},
    },
    description="docshelf serve's answer to PUT /uploads: the file was stored and ingested before it answered",
)

INGRESS_SCHEMAS: dict[str, Schema] = {
    "UploadBody": UPLOAD_BODY,
    "UploadOut": UPLOAD_OUT,
    "IngestBody": INGEST_BODY,
    "IngestOut": INGEST_OUT,
    "DeleteOut": DELETE_OUT,
    "UploadedOut": UPLOADED_OUT,
}
