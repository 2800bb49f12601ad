"""A namespace's document objects packed into a few segment objects, so that a cold load reads a handful of objects
and the change log's tail instead of one object per document (at 20 ms a GET, 10,000 documents took 26 s).

A compaction writes segments of up to SEGMENT_BYTES under a folder of its own, then the manifest
(`<prefix>/<namespace>.segments/manifest.json`) naming them, each with its size, document count and fingerprint,
and the change log entry they include: the log's last entry, read before the documents were. A document changed
after that entry may be in the segments in either version; the log names it, and a reader reads it again. So the
change log and the document objects stay the source of truth: a writer racing a compaction loses nothing.

A record is the document's id and its store object byte for byte, so a document loads from a segment exactly as
from its own object (same fingerprint, so the namespace snapshot's postings still apply). Segments a manifest
replaces are deleted by the compaction after the next, so a reader that has just read the previous manifest still
finds them. A missing or damaged manifest or segment raises SegmentError: the caller reads the documents' objects.
"""

from __future__ import annotations

import logging
import struct
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from docshelf.index.embedded.namespace_snapshot import fingerprint
from docshelf.serde import dumps, loads
from docshelf.store.base import ObjectStore
from docshelf.store.fetch import get_many

SEGMENTS_FORMAT = 1
SEGMENT_BYTES = 4 << 20  # a segment holds documents up to this size (a larger document is alone in one)
SEGMENT_READERS = 4  # segments read at once; with one ahead each, at most 5 segments' bytes are in memory
_log = logging.getLogger(__name__)
_MAGIC = b"DSSEG1\n"
_LENGTHS = struct.Struct(">II")  # id bytes, object bytes


class SegmentError(ValueError):
    """Segments a reader cannot use: a manifest or segment missing, damaged or of another format."""


@dataclass(frozen=True, slots=True)
class Segment:
    key: str
    documents: int
    size: int
    fingerprint: str


@dataclass(frozen=True, slots=True)
class Manifest:
    log_entry: int  # the change log's last entry when the documents were read: the segments include it
    segments: Sequence[Segment]
    retired: Sequence[str]  # segments of the manifest before, deleted by the next compaction

    @property
    def documents(self) -> int:
        return sum(segment.documents for segment in self.segments)


def pack(records: Iterable[tuple[str, bytes]]) -> bytes:
    parts = [_MAGIC]
    for document_id, stored in records:
        name = document_id.encode("utf-8", "surrogatepass")
        parts += [_LENGTHS.pack(len(name), len(stored)), name, stored]
    return b"".join(parts)


def unpack(raw: bytes) -> Iterator[tuple[str, bytes]]:
    """(document id, its store object) of each record; SegmentError on a damaged segment."""
    if not raw.startswith(_MAGIC):
        raise SegmentError("not a segment of this format")
    view = memoryview(raw)
    at = len(_MAGIC)
    while at < len(raw):
        if at + _LENGTHS.size > len(raw):
            raise SegmentError("a segment ends inside a record")
        name_size, object_size = _LENGTHS.unpack_from(raw, at)
        at += _LENGTHS.size
        end = at + name_size + object_size
        if end > len(raw):
            raise SegmentError("a segment ends inside a record")
        try:
            document_id = bytes(view[at : at + name_size]).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError as error:
            raise SegmentError(f"a record's document id is not UTF-8: {error}") from error
        yield document_id, bytes(view[at + name_size : end])
        at = end


class NamespaceSegments:
    def __init__(self, store: ObjectStore, prefix: str) -> None:
        self.store = store
        self.prefix = prefix

    def _folder(self, namespace: str) -> str:
        return f"{self.prefix}/{namespace}.segments"  # a namespace name holds no dot, so no document is there

    def manifest_key(self, namespace: str) -> str:
        return f"{self._folder(namespace)}/manifest.json"

    def manifest(self, namespace: str) -> Manifest | None:
        """The namespace's manifest, None when it has none; SegmentError when it cannot be read."""
        raw = self.store.get(self.manifest_key(namespace))
        return None if raw is None else _manifest(namespace, raw)

    def records(self, namespace: str, manifest: Manifest) -> Iterator[tuple[str, bytes]]:
        """(document id, store object) of every document in the segments, a few segments read at once and one
        unpacked at a time; SegmentError when a segment is missing or not the one the manifest names."""
        keys = [segment.key for segment in manifest.segments]
        read = get_many(self.store, keys, workers=SEGMENT_READERS, ahead=1)
        for segment, (_, raw) in zip(manifest.segments, read, strict=True):
            if raw is None:
                raise SegmentError(f"namespace {namespace}: segment {segment.key} is missing")
            if len(raw) != segment.size or fingerprint(raw) != segment.fingerprint:
                raise SegmentError(f"namespace {namespace}: segment {segment.key} is not the one the manifest names")
            count = 0
            for record in unpack(raw):
                count += 1
                yield record
            if count != segment.documents:
                raise SegmentError(f"namespace {namespace}: segment {segment.key} holds {count} documents")

    def write(
        self, namespace: str, log_entry: int, records: Iterable[tuple[str, bytes]], previous: Manifest | None
    ) -> Manifest:
        """Segments of the records (each document once) and the manifest naming them, which replaces `previous`
        (the manifest the records were read from, if any); the segments `previous` retired are deleted. Should
        anything fail, the segments written are deleted and the manifest before stays."""
        if log_entry < 0:
            raise ValueError(f"a log entry is not negative, not {log_entry}")
        folder = f"{self._folder(namespace)}/{log_entry:012d}-{uuid.uuid4().hex[:12]}"
        written: list[Segment] = []
        try:
            pending: list[tuple[str, bytes]] = []
            size = 0
            for record in records:
                if pending and size + len(record[1]) > SEGMENT_BYTES:
                    written.append(self._put_segment(f"{folder}/{len(written):05d}.seg", pending))
                    pending, size = [], 0
                pending.append(record)
                size += len(record[1])
            if pending:
                written.append(self._put_segment(f"{folder}/{len(written):05d}.seg", pending))
            retired = [segment.key for segment in previous.segments] if previous is not None else []
            manifest = Manifest(log_entry, written, retired)
            self.store.put(self.manifest_key(namespace), _dumped(manifest), content_type="application/json")
        except BaseException:
            for segment in written:
                self.store.delete(segment.key)
            raise
        for key in previous.retired if previous is not None else ():
            try:
                self.store.delete(key)
            except Exception as error:  # the manifest is written: a segment left over only takes room
                _log.warning("namespace %s: retired segment %s not deleted: %r", namespace, key, error)
        return manifest

    def _put_segment(self, key: str, records: Sequence[tuple[str, bytes]]) -> Segment:
        raw = pack(records)
        self.store.put(key, raw)
        return Segment(key, len(records), len(raw), fingerprint(raw))


def _dumped(manifest: Manifest) -> bytes:
    return dumps(
        {
            "format": SEGMENTS_FORMAT,
            "log_entry": manifest.log_entry,
            "segments": [[s.key, s.documents, s.size, s.fingerprint] for s in manifest.segments],
            "retired": list(manifest.retired),
        }
    )


def _manifest(namespace: str, raw: bytes) -> Manifest:
    try:
        data = loads(raw)
        if data.get("format") != SEGMENTS_FORMAT:
            raise TypeError(f"format {data.get('format')!r}, not {SEGMENTS_FORMAT}")
        log_entry = data["log_entry"]
        if not isinstance(log_entry, int) or log_entry < 0:
            raise TypeError(f"log entry {log_entry!r}")
        segments = [Segment(str(k), int(d), int(s), str(f)) for k, d, s, f in data["segments"]]
        retired = [str(key) for key in data["retired"]]
    except Exception as error:  # damaged JSON, or another shape
        raise SegmentError(f"namespace {namespace}: unreadable segments manifest: {error!r}") from error
    return Manifest(log_entry, segments, retired)
