"""Bounds on every request field: checked before anything reaches the registry, the cache or the index."""

from __future__ import annotations

from docshelf.search.request import MAX_TOP_K

MAX_BODY_BYTES = 16_384
MAX_JSON_DEPTH = 4  # {"filters": {"documents": ["x"]}} is depth 3
MAX_QUERY_CHARS = 1_000
MAX_EVIDENCE_TOKENS = 20_000
MAX_FILTER_VALUES = 50
MAX_FILTER_VALUE_CHARS = 512
MAX_DOCUMENT_ID_CHARS = 128
TOP_K_LIMIT = MAX_TOP_K
