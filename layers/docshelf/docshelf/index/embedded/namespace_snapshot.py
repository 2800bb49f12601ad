"""A namespace's postings in one store object, so that a new process loads them instead of analyzing every
chunk again (at 100k chunks the analysis is three quarters of a load; see bench/index_bench.py).

The document objects stay the source of truth. The snapshot lists the documents it covers with the
fingerprint of each one's stored object, and a loader takes a document's postings from it only while that
object is unchanged; other documents are analyzed as if there were no snapshot. A snapshot that cannot be
read, or was written by another snapshot format or analyzer version, is not used.

The object is an uncompressed .npz: a JSON header, the terms, and per channel the postings arrays with term
ids local to the snapshot (its terms in the order of their ids) and rows numbered from 0 in document order; and
when every live chunk has a vector, the int8 codes and scales by row with their model in the header.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from docshelf.index.embedded.bm25 import IntArray, Postings
from docshelf.index.plan import CHANNELS, Channel
from docshelf.index.vectors import StoredVectors, VectorModel
from docshelf.serde import dumps, loads
from docshelf.versions import ANALYZER_VERSION, SNAPSHOT_FORMAT

_TERM_SEPARATOR = "\n"  # no term holds whitespace: terms come from whitespace-separated pieces


class SnapshotError(ValueError):
    """A snapshot that cannot be used (unreadable, inconsistent, or of another format or analyzer)."""


def fingerprint(stored_object: bytes) -> str:
    """What identifies a document's stored object: 128 bits of its SHA-256 (faster here than CRC-32 or BLAKE2,
    on the CPU's SHA instructions)."""
    return hashlib.sha256(stored_object).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class SnapshotDocument:
    document_id: str
    fingerprint: str
    rows: int


@dataclass(frozen=True, slots=True)
class NamespaceSnapshot:
    documents: Sequence[SnapshotDocument]  # in row order, each holding `rows` consecutive rows
    terms: Sequence[str]  # the term of each snapshot term id
    channels: Mapping[Channel, Postings]
    vectors: StoredVectors | None = None  # every row's, or none

    @property
    def rows(self) -> int:
        return sum(document.rows for document in self.documents)

    def vectors_of(self, start: int, rows: int) -> StoredVectors | None:
        if self.vectors is None:
            return None
        end = start + rows
        return StoredVectors(self.vectors.model, self.vectors.codes[start:end], self.vectors.scales[start:end])


def _smallest_unsigned(values: npt.NDArray[np.int32]) -> npt.NDArray[np.unsignedinteger[Any]]:
    top = int(values.max()) if len(values) else 0
    return values.astype(np.uint8 if top < 1 << 8 else np.uint16 if top < 1 << 16 else np.uint32)


def encode(snapshot: NamespaceSnapshot) -> bytes:
    if any(_TERM_SEPARATOR in term or not term for term in snapshot.terms):
        raise SnapshotError("a term holds a line break or is empty")
    header = {
        "format": SNAPSHOT_FORMAT,
        "analyzer": ANALYZER_VERSION,
        "documents": [[d.document_id, d.fingerprint, d.rows] for d in snapshot.documents],
        "vector_model": snapshot.vectors.model.to_dict() if snapshot.vectors is not None else None,
    }
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "header": np.frombuffer(dumps(header), dtype=np.uint8),
        "terms": np.frombuffer(_TERM_SEPARATOR.join(snapshot.terms).encode("utf-8", "surrogatepass"), dtype=np.uint8),
    }
    for channel in CHANNELS:
        postings = snapshot.channels[channel]
        arrays[f"{channel}.terms"] = postings.terms.astype(np.int32)
        arrays[f"{channel}.starts"] = postings.starts
        arrays[f"{channel}.rows"] = _smallest_unsigned(postings.rows)
        arrays[f"{channel}.tfs"] = _smallest_unsigned(postings.tfs)
    if snapshot.vectors is not None:
        arrays["vectors.codes"] = snapshot.vectors.codes
        arrays["vectors.scales"] = snapshot.vectors.scales
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    return buffer.getvalue()


def decode(raw: bytes) -> NamespaceSnapshot:
    """The snapshot in `raw`; SnapshotError if it cannot be used."""
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as stored:
            header = loads(stored["header"].tobytes())
            if header.get("format") != SNAPSHOT_FORMAT or header.get("analyzer") != ANALYZER_VERSION:
                raise SnapshotError(
                    f"snapshot format {header.get('format')} of analyzer {header.get('analyzer')}, "
                    f"not format {SNAPSHOT_FORMAT} of analyzer {ANALYZER_VERSION}"
                )
            documents = [SnapshotDocument(str(i), str(f), int(r)) for i, f, r in header["documents"]]
            text = stored["terms"].tobytes().decode("utf-8", "surrogatepass")
            terms = text.split(_TERM_SEPARATOR) if text else []
            channels = {
                channel: Postings(
                    terms=stored[f"{channel}.terms"].astype(np.int64),
                    starts=stored[f"{channel}.starts"].astype(np.int64),
                    rows=stored[f"{channel}.rows"].astype(np.int32),
                    tfs=stored[f"{channel}.tfs"].astype(np.int32),
                )
                for channel in CHANNELS
            }
            vectors = _vectors(header.get("vector_model"), stored)
    except SnapshotError:
        raise
    except Exception as error:  # a damaged object can fail in zipfile, numpy or the JSON decoder
        raise SnapshotError(f"unreadable snapshot: {error!r}") from error
    if any(document.rows < 0 for document in documents) or len({d.document_id for d in documents}) < len(documents):
        raise SnapshotError("a document is listed twice or with a negative row count")
    if len(set(terms)) < len(terms):
        raise SnapshotError("a term is listed twice")
    snapshot = NamespaceSnapshot(documents, terms, channels, vectors)
    if vectors is not None and vectors.codes.shape != (snapshot.rows, vectors.model.dimension):
        raise SnapshotError("vectors of another shape than the rows")
    for channel, postings in channels.items():
        _check(channel, postings, len(terms), snapshot.rows)
    return snapshot


def _vectors(model: Any, stored: Any) -> StoredVectors | None:
    if model is None:
        return None
    codes = stored["vectors.codes"]
    scales = stored["vectors.scales"]
    if codes.dtype != np.int8 or scales.dtype != np.float32 or len(codes) != len(scales):
        raise SnapshotError("vectors of another type or length than int8 codes with float32 scales")
    return StoredVectors(VectorModel.from_dict(model), codes, scales)


def _check(channel: Channel, postings: Postings, terms: int, rows: int) -> None:
    """Fail unless the postings are what `encode` writes, so a bad snapshot cannot index out of bounds."""
    starts = postings.starts
    consistent = (
        len(starts) == len(postings.terms) + 1
        and starts[0] == 0
        and starts[-1] == len(postings.rows) == len(postings.tfs)
        and bool(np.all(np.diff(starts) >= 0))
        and bool(np.all(np.diff(postings.terms) > 0))
        and (not len(postings.terms) or (postings.terms[0] >= 0 and postings.terms[-1] < terms))
        and (not len(postings.rows) or (int(postings.rows.min()) >= 0 and int(postings.rows.max()) < rows))
        and (not len(postings.tfs) or int(postings.tfs.min()) > 0)
    )
    if not consistent:
        raise SnapshotError(f"inconsistent {channel} postings")


def rows_kept(snapshot: NamespaceSnapshot, kept: set[str]) -> npt.NDArray[np.bool_]:
    """Which snapshot rows belong to the documents in `kept`."""
    flags = [document.document_id in kept for document in snapshot.documents]
    counts = [document.rows for document in snapshot.documents]
    return np.repeat(np.array(flags, dtype=np.bool_), np.array(counts, dtype=np.int64))


def unless_identity(numbers: IntArray) -> IntArray | None:
    """`numbers`, or None when it maps each number to itself."""
    return None if np.array_equal(numbers, np.arange(len(numbers))) else numbers


def renumbered(postings: Postings, row_map: IntArray | None, term_map: IntArray | None) -> Postings:
    """The postings with rows and terms given new numbers (`row_map[row]`, `term_map[term]`, None keeping them);
    rows keep their order, terms are sorted again should their new numbers not."""
    rows = postings.rows if row_map is None else row_map[postings.rows].astype(np.int32)
    terms = postings.terms if term_map is None else term_map[postings.terms]
    moved = Postings(terms, postings.starts, rows, postings.tfs)
    if term_map is not None and len(terms) > 1 and not bool(np.all(np.diff(terms) > 0)):
        return Postings.merge([moved], None)
    return moved
