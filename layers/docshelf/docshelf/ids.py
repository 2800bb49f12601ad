"""Names and ids (docs/architecture.md#ids): namespaces, document ids, content-derived chunk ids."""

from __future__ import annotations

import hashlib
import re

from docshelf.errors import InvalidNameError

NAMESPACE_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def validate_namespace(namespace: str) -> str:
    if not NAMESPACE_PATTERN.fullmatch(namespace):
        raise InvalidNameError(
            f"invalid namespace {namespace!r}: use 1-64 of a-z 0-9 _ - starting with a letter or digit"
        )
    return namespace


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def document_id(namespace: str, source_key: str) -> str:
    """Stable for (namespace, source key) across versions of the object."""
    return "d" + hashlib.sha256(f"{namespace}\x00{source_key}".encode()).hexdigest()[:23]


def chunk_ids(document: str, texts: list[str]) -> list[str]:
    """Ids from each chunk's text within its document; repeats get a deterministic ordinal suffix."""
    seen: dict[str, int] = {}
    ids = []
    for text in texts:
        base = "c" + hashlib.sha256(f"{document}\x00{text}".encode()).hexdigest()[:23]
        count = seen.get(base, 0)
        seen[base] = count + 1
        ids.append(base if count == 0 else f"{base}-{count + 1}")
    return ids
