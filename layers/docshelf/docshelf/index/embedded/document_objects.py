"""The embedded index's store objects: one per document, holding its revision and its chunks.

Postings are not stored here: decoding them from each document's JSON took longer than analyzing its chunks
again. A load takes them from the namespace's snapshot (namespace_snapshot.py), one binary object, for the
documents whose objects it covers unchanged, and analyzes the others' chunks.
Objects of formats 1 to 4 also held postings; their chunks load as they are. From format 6 an object may hold its
chunks' vectors: int8 codes and a float32 scale per chunk (index/vectors.py), base64, with their model.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import numpy as np

from docshelf.index.vectors import StoredVectors, VectorModel
from docshelf.model import Chunk
from docshelf.serde import chunk_from_dict, dumps, loads
from docshelf.versions import INDEX_FORMAT


def dump_document(
    document_id: str, revision: str, chunks: Sequence[Chunk], vectors: StoredVectors | None = None
) -> bytes:
    """The document's store object (orjson writes the chunk dataclasses as `serde.chunk_to_dict` would)."""
    data: dict[str, Any] = {"format": INDEX_FORMAT, "document_id": document_id, "revision": revision}
    data["chunks"] = list(chunks)
    if vectors is not None:
        data["vectors"] = {
            "model": vectors.model.to_dict(),
            "codes": base64.b64encode(vectors.codes.tobytes()).decode("ascii"),
            "scales": base64.b64encode(vectors.scales.astype("<f4").tobytes()).decode("ascii"),
        }
    return dumps(data)


def _vectors(data: dict[str, Any], rows: int) -> StoredVectors | None:
    stored = data.get("vectors")
    if stored is None:
        return None
    model = VectorModel.from_dict(stored["model"])
    codes = np.frombuffer(base64.b64decode(stored["codes"]), dtype=np.int8).reshape(rows, model.dimension)
    scales = np.frombuffer(base64.b64decode(stored["scales"]), dtype="<f4").astype(np.float32)
    if len(scales) != rows:
        raise ValueError(f"{len(scales)} vector scales for {rows} chunks")
    return StoredVectors(model, codes, scales)


def load_document(raw: bytes) -> tuple[str, list[Chunk], StoredVectors | None]:
    """(document id, chunks, their vectors if stored) of a store object."""
    data = loads(raw)
    version = data.get("format", 1)
    if version == 1:
        return data["document_id"], [chunk_from_dict(entry["chunk"]) for entry in data["chunks"]], None
    if version in (2, 3, 4, 5, INDEX_FORMAT):
        chunks = [chunk_from_dict(entry) for entry in data["chunks"]]
        return data["document_id"], chunks, _vectors(data, len(chunks))
    raise ValueError(
        f"index object format {version} is newer than this docshelf reads ({INDEX_FORMAT}): "
        "upgrade docshelf, or delete the index folder and ingest again to rebuild it"
    )
