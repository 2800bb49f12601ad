"""The HTTP contract as JSON Schemas (draft 2020-12, the dialect of OpenAPI 3.1).

The same dictionaries validate requests and responses (`docshelf.json_schema`) and are the
`components/schemas` of the OpenAPI document (`docshelf.api.openapi`), so the two cannot drift apart.
"""

from __future__ import annotations

from docshelf.api.limits import (
    MAX_DOCUMENT_ID_CHARS,
    MAX_EVIDENCE_TOKENS,
    MAX_FILTER_VALUE_CHARS,
    MAX_FILTER_VALUES,
    MAX_QUERY_CHARS,
    TOP_K_LIMIT,
)
from docshelf.api.schema_parts import NAMESPACE as NAMESPACE
from docshelf.api.schema_parts import NAMESPACE_REGEX as NAMESPACE_REGEX
from docshelf.api.schema_parts import NO_CONTROL_CHARACTERS_REGEX
from docshelf.api.schema_parts import STRINGS as _STRINGS
from docshelf.api.schema_parts import Schema as Schema
from docshelf.api.schema_parts import closed as _closed
from docshelf.api.schema_parts import ref as ref
from docshelf.api.schemas_agentic import (
    AGENTIC_BODY_FIELDS,
    AGENTIC_COMPONENTS,
    AGENTIC_OUT_FIELDS,
    AGENTIC_RESULT_FIELDS,
)
from docshelf.api.schemas_graph import GRAPH_SCHEMAS
from docshelf.api.schemas_ingress import INGRESS_SCHEMAS
from docshelf.search.request import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K

DOCUMENT_ID_REGEX = r"^[A-Za-z0-9_-]{1,128}$"
CHUNK_TYPES = ["text", "table", "image"]
DOCUMENT_STATUSES = ["processing", "ok", "partial", "failed", "needs_ocr", "deleted"]


DOCUMENT_ID: Schema = {"type": "string", "pattern": DOCUMENT_ID_REGEX, "maxLength": MAX_DOCUMENT_ID_CHARS}
_FILTER_VALUE: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_FILTER_VALUE_CHARS,
    "pattern": NO_CONTROL_CHARACTERS_REGEX,
}
_CHUNK_TYPE: Schema = {"type": "string", "enum": CHUNK_TYPES}


def _filter_list(items: Schema, max_items: int) -> Schema:
    return {"type": "array", "items": items, "maxItems": max_items, "default": []}


SEARCH_FILTERS_BODY = _closed(
    {
        "documents": _filter_list(_FILTER_VALUE, MAX_FILTER_VALUES),
        "exclude_documents": _filter_list(_FILTER_VALUE, MAX_FILTER_VALUES),
        "exclude_sections": _filter_list(_FILTER_VALUE, MAX_FILTER_VALUES),
        "chunk_types": _filter_list(_CHUNK_TYPE, len(CHUNK_TYPES)),
    },
    required=[],
)

SEARCH_BODY = _closed(
    {
        "namespace": NAMESPACE,
        "query": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_QUERY_CHARS,
            "allOf": [{"pattern": NO_CONTROL_CHARACTERS_REGEX}, {"pattern": r"\S"}],
            "description": "Plain text, analyzed into terms; never parsed as query syntax.",
        },
        "top_k": {"type": "integer", "minimum": 1, "maximum": TOP_K_LIMIT, "default": DEFAULT_TOP_K},
        "max_tokens": {"type": "integer", "minimum": 1, "maximum": MAX_EVIDENCE_TOKENS, "default": DEFAULT_MAX_TOKENS},
        "filters": {**ref("SearchFiltersBody"), "default": {}},
        "min_score": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "default": 0,
            "description": "Leave out results (and their evidence) whose confidence is below this",
        },
        **AGENTIC_BODY_FIELDS,
    },
    required=["namespace", "query"],
    description="A search over one namespace: ranked chunks with citations, within a token budget.",
)

LINK_OUT = _closed(
    {
        "target": {"type": "string"},
        "relation": {"type": "string"},
        "ref": {"type": "string"},
        "position": {"type": "integer"},
    }
)

_SEARCH_RESULT_FIELDS: dict[str, Schema] = {
    "chunk_id": {"type": "string"},
    "document_id": {"type": "string"},
    "namespace": {"type": "string"},
    "chunk_type": _CHUNK_TYPE,
    "text": {"type": "string"},
    "section_path": _STRINGS,
    "pages": {"type": "array", "items": {"type": "integer"}},
    "token_count": {"type": "integer"},
    "ordinal": {"type": "integer"},
    "source_file_name": {"type": "string"},
    "source_key": {"type": "string", "description": "The document's path inside the namespace, as cited"},
    "revision": {"type": "string"},
    "connect_to": {"type": "array", "items": ref("LinkOut")},
    "overlap_chars": {"type": "integer"},
    "citation_tokens": {"type": "integer"},
    "score": {"type": "number"},
    "lexical_score": {"type": "number", "description": "The content channel's BM25 score (0: no word matched)"},
    "confidence": {
        "type": "number",
        "minimum": 0,
        "maximum": 1,
        "description": "The chance that the chunk holds the answer, from the share of the query's words it holds",
    },
    "evidence_ref": {
        "type": ["integer", "null"],
        "description": "The [n] of the chunk's block in evidence_text (null: not in the evidence)",
    },
    "evidence_excerpt": {
        "type": ["string", "null"],
        "description": "The part of text that went into evidence_text (the whole text when it all fit)",
    },
    "channel_ranks": {"type": "object", "additionalProperties": {"type": "integer"}},
    "asset": {
        "type": "string",
        "description": "An image chunk's image: a presigned GET URL (an hour) on AWS, a file path locally",
    },
    "highlights": {
        "type": "array",
        "items": {"type": "array", "items": {"type": "integer", "minimum": 0}, "maxItems": 2},
        "description": "[start, end) offsets in Unicode code points into text where a query term matched, by the "
        "index's analyzer (stems, identifiers, CJK bigrams); sorted, never overlapping",
    },
    "table": ref("TableCellsOut"),
}
SEARCH_RESULT_OUT = _closed(
    {**_SEARCH_RESULT_FIELDS, **AGENTIC_RESULT_FIELDS},
    required=[name for name in _SEARCH_RESULT_FIELDS if name not in ("asset", "table")],
)
TABLE_CELLS_OUT = _closed(
    {
        "caption": {"type": "string"},
        "header_rows": {"type": "integer", "minimum": 0},
        "rows": {"type": "array", "items": _STRINGS},
    },
    description="A table chunk's rows of cells (a cell spanning several positions repeated in each), read from "
    "its Markdown text, which stays in text",
)

SEARCH_OUT = _closed(
    {
        "evidence_text": {
            "type": "string",
            "description": "The passages of the ranked chunks that answer, under compact [n] citation headers, "
            "within max_tokens",
        },
        "answer_text": {"type": "string", "description": "Always empty: docshelf returns evidence, not answers"},
        "results": {
            "type": "array",
            "items": ref("SearchResultOut"),
            "description": "The top_k ranked chunks, not cut by the budget; every chunk the evidence quotes is "
            "among them",
        },
        "total_chunks": {"type": "integer"},
        "evidence_chunks": {"type": "integer"},
        "evidence_tokens": {
            "type": "integer",
            "description": "cl100k_base tokens the budget counted for evidence_text "
            "(<= max_tokens; never fewer than the text has)",
        },
        "corrections": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "When no chunk matched the query as written: each misspelt query term (as analyzed) "
            "with the indexed term searched instead; empty otherwise",
        },
        "empty_reason": {
            "type": "string",
            "enum": ["only_stop_words", "empty_namespace", "all_filtered", "no_match", "below_min_score"],
            "description": "Only when results is empty: why (search/empty.py)",
        },
        "good_match": {
            "type": "boolean",
            "description": "Some result holds 60% of the query's idf-weighted words (its confidence reaches that "
            "share's); false: nothing matched well (a weak answer or none)",
        },
        "passage_model": {
            "type": ["string", "null"],
            "description": "The sentence model that voted on the results and ordered the evidence's passages "
            "(model and version, e.g. local-all-minilm-l6-v2-q-v1-384; in agentic mode it orders each step's "
            "passages); null: the words alone (no model, or a query in Chinese, Japanese or Korean)",
        },
        "cache": {"type": "string", "enum": ["hit", "miss"]},
        "took_ms": {"type": "number"},
        **AGENTIC_OUT_FIELDS,
    },
    required=[
        "evidence_text",
        "answer_text",
        "results",
        "total_chunks",
        "evidence_chunks",
        "corrections",
        "cache",
        "took_ms",
    ],
)

DOCUMENT_OUT = _closed(
    {
        "namespace": {"type": "string"},
        "document_id": {"type": "string"},
        "source_key": {"type": "string"},
        "source_file_name": {"type": "string"},
        "status": {"type": "string", "enum": DOCUMENT_STATUSES},
        "revision": {"type": "string"},
        "chunk_count": {"type": "integer"},
        "pages": {"type": "integer", "minimum": 0, "description": "Pages of the parsed revision (0 before one)"},
        "error_code": {"type": "string"},
        "error_message": {"type": "string"},
        "sequencer": {"type": "string"},
        "updated_at": {"type": "number"},
    }
)

NAMESPACE_LIST_OUT = _closed(
    {
        "namespaces": {
            "type": "array",
            "items": {"type": "string"},
            "description": "sorted; only those the token may read",
        }
    }
)

DOCUMENT_LIST_OUT = _closed(
    {
        "namespace": {"type": "string"},
        "documents": {"type": "array", "items": ref("DocumentOut")},
        "next_cursor": {
            "type": ["string", "null"],
            "description": "Pass as cursor for the next page; null on the last one",
        },
    }
)

# GET /documents' query parameters besides namespace (query values are strings; limit is checked as digits).
LIST_QUERY: dict[str, Schema] = {
    "status": {"type": "string", "enum": DOCUMENT_STATUSES},
    "source_key": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "one document by its key"},
    "limit": {"type": "string", "pattern": "^(1000|[1-9][0-9]{0,2})$", "description": "1-1000, default 1000"},
    "cursor": {"type": "string", "minLength": 1, "maxLength": 2048, "pattern": "^[A-Za-z0-9_-]+$"},
}

ERROR_OUT = _closed(
    {
        "message": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    },
    required=["message"],
)

SOURCE_URL_OUT = _closed(
    {
        "url": {"type": "string", "description": "a presigned GET URL of the source object"},
        "expires_in": {"type": "integer"},
    }
)

COMPONENTS: dict[str, Schema] = {
    "SearchFiltersBody": SEARCH_FILTERS_BODY,
    "SearchBody": SEARCH_BODY,
    "LinkOut": LINK_OUT,
    "SearchResultOut": SEARCH_RESULT_OUT,
    "TableCellsOut": TABLE_CELLS_OUT,
    "SearchOut": SEARCH_OUT,
    "DocumentOut": DOCUMENT_OUT,
    "DocumentListOut": DOCUMENT_LIST_OUT,
    "NamespaceListOut": NAMESPACE_LIST_OUT,
    "ErrorOut": ERROR_OUT,
    "SourceUrlOut": SOURCE_URL_OUT,
    **AGENTIC_COMPONENTS,
    **INGRESS_SCHEMAS,
    **GRAPH_SCHEMAS,
}
