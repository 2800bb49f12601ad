"""The embedded index's store objects: one per document, read and written without analysing text again.

A document's object holds its chunks, its distinct terms (one string separated by newlines, which no
term holds), and per channel its postings in a compact form: the channel's terms (as indexes into the
document's terms), how many of the document's chunks hold each, and then those chunks (as positions in
the document) with the term's frequency; the numbers as base64 of the smallest little-endian unsigned
type that holds them. Objects of format 1 (every chunk with its term lists), 2 and 3 (the terms as a
JSON list) still load.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

from docshelf.index.base import CHANNELS, Channel
from docshelf.index.bm25 import IntArray, Vocabulary, count_postings, sorted_distinct
from docshelf.model import Chunk
from docshelf.serde import chunk_from_dict, dumps, loads

INDEX_FORMAT = 4

# Per channel: (term ids sorted, position of the chunk in its document, term frequency), one per distinct
# term of a chunk.
ChannelPostings = dict[Channel, tuple[IntArray, IntArray, IntArray]]
_CHUNK_FIELDS = tuple(field.name for field in fields(Chunk))


@dataclass(frozen=True, slots=True)
class DocumentPostings:
    document_id: str
    chunks: Sequence[Chunk]
    postings: ChannelPostings
    distinct: dict[Channel, tuple[IntArray, IntArray]]  # per channel: the document's terms, chunks holding each
    # The content postings sorted by chunk, then term, where the analysis had them in that order already.
    content_by_chunk: tuple[IntArray, IntArray, IntArray] | None = None


def document_postings(
    document_id: str,
    chunks: Sequence[Chunk],
    postings: ChannelPostings,
    *,
    content_by_chunk: tuple[IntArray, IntArray, IntArray] | None = None,
) -> DocumentPostings:
    """A document's postings, each channel's sorted by term."""
    distinct = {channel: runs(term_col) for channel, (term_col, _, _) in postings.items()}
    return DocumentPostings(document_id, chunks, postings, distinct, content_by_chunk)


def _chunk_dict(chunk: Chunk) -> dict[str, Any]:
    """serde.chunk_to_dict without dataclasses.asdict's deep copies."""
    data = {name: getattr(chunk, name) for name in _CHUNK_FIELDS}
    data["connect_to"] = [asdict(link) for link in chunk.connect_to]
    return data


def _encode(values: IntArray) -> str:
    """Non-negative integers as `<dtype>:<base64>`, in the smallest little-endian unsigned type that holds them."""
    top = int(values.max()) if len(values) else 0
    dtype = "<u1" if top < 1 << 8 else "<u2" if top < 1 << 16 else "<u4"
    return f"{dtype}:{base64.b64encode(values.astype(dtype).tobytes()).decode('ascii')}"


def _decode(text: str) -> IntArray:
    dtype, _, data = text.partition(":")
    if dtype not in ("<u1", "<u2", "<u4"):
        raise ValueError(f"unknown array type {dtype!r} in an index object")
    return np.frombuffer(base64.b64decode(data), dtype=dtype).astype(np.int64)


def runs(sorted_values: IntArray) -> tuple[IntArray, IntArray]:
    """(distinct values, how often each occurs) of a sorted array."""
    if not len(sorted_values):
        return sorted_values, sorted_values
    firsts = np.flatnonzero(np.concatenate(([True], sorted_values[1:] != sorted_values[:-1])))
    return sorted_values[firsts], np.diff(np.append(firsts, len(sorted_values)))


def dump_document(document: DocumentPostings, revision: str, vocabulary: Vocabulary) -> bytes:
    """The document's store object; its distinct terms once, and per channel its postings with terms as
    indexes into them."""
    channel_runs = document.distinct
    terms = sorted_distinct(np.concatenate([terms for terms, _ in channel_runs.values()]))
    joined = "\n".join(vocabulary.strings(terms))
    if joined.count("\n") != max(len(terms) - 1, 0):  # terms come from whitespace-split text
        raise ValueError("an index term holds a newline")
    stored: dict[str, Any] = {"terms": joined}
    for channel, (_, positions, tfs) in document.postings.items():
        channel_terms, per_term = channel_runs[channel]
        stored[channel] = {
            "terms": _encode(np.searchsorted(terms, channel_terms)),
            "per_term": _encode(per_term),
            "positions": _encode(positions),
            "tfs": _encode(tfs),
        }
    payload = {
        "format": INDEX_FORMAT,
        "document_id": document.document_id,
        "revision": revision,
        "chunks": [_chunk_dict(chunk) for chunk in document.chunks],
        "postings": stored,
    }
    return dumps(payload)


def load_document(raw: bytes, vocabulary: Vocabulary) -> DocumentPostings:
    data = loads(raw)
    version = data.get("format", 1)
    if version == 1:
        chunks = [chunk_from_dict(entry["chunk"]) for entry in data["chunks"]]
        postings = _listed_postings([entry["terms"] for entry in data["chunks"]], vocabulary)
        return document_postings(data["document_id"], chunks, postings)
    if version in (2, 3, INDEX_FORMAT):
        chunks = [chunk_from_dict(entry) for entry in data["chunks"]]
        postings, distinct = {}, {}
        listed = data["postings"]["terms"]
        term_ids = vocabulary.ids(listed if version < 4 else listed.split("\n") if listed else [])
        for channel in CHANNELS:
            stored = data["postings"][channel]
            terms, per_term = term_ids[_decode(stored["terms"])], _decode(stored["per_term"])
            postings[channel] = (np.repeat(terms, per_term), _decode(stored["positions"]), _decode(stored["tfs"]))
            distinct[channel] = (terms, per_term)
        return DocumentPostings(data["document_id"], chunks, postings, distinct)
    raise ValueError(
        f"index object format {version} is newer than this docshelf reads ({INDEX_FORMAT}): "
        "upgrade docshelf, or delete the index folder and ingest again to rebuild it"
    )


def _listed_postings(terms_per_chunk: Sequence[dict[Channel, list[str]]], vocabulary: Vocabulary) -> ChannelPostings:
    ids = vocabulary.ids
    return {
        channel: count_postings(range(len(terms_per_chunk)), [ids(terms[channel]) for terms in terms_per_chunk])
        for channel in CHANNELS
    }
