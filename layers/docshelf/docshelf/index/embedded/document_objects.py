"""The embedded index's store objects: one per document, holding its revision and its chunks.

Postings are not stored here: decoding them from each document's JSON took longer than analyzing its chunks
again. A load takes them from the namespace's snapshot (namespace_snapshot.py), one binary object, for the
documents whose objects it covers unchanged, and analyzes the others' chunks.
Objects of formats 1 to 4 also held postings; their chunks load as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from docshelf.model import Chunk
from docshelf.serde import chunk_from_dict, dumps, loads

INDEX_FORMAT = 5


def dump_document(document_id: str, revision: str, chunks: Sequence[Chunk]) -> bytes:
    """The document's store object (orjson writes the chunk dataclasses as `serde.chunk_to_dict` would)."""
    return dumps({"format": INDEX_FORMAT, "document_id": document_id, "revision": revision, "chunks": list(chunks)})


def load_document(raw: bytes) -> tuple[str, list[Chunk]]:
    """(document id, chunks) of a store object."""
    data = loads(raw)
    version = data.get("format", 1)
    if version == 1:
        return data["document_id"], [chunk_from_dict(entry["chunk"]) for entry in data["chunks"]]
    if version in (2, 3, 4, INDEX_FORMAT):
        return data["document_id"], [chunk_from_dict(entry) for entry in data["chunks"]]
    raise ValueError(
        f"index object format {version} is newer than this docshelf reads ({INDEX_FORMAT}): "
        "upgrade docshelf, or delete the index folder and ingest again to rebuild it"
    )
