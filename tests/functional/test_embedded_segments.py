"""A cold load of the embedded index from the namespace's segments and its change log's tail, on a local folder
and on S3 (moto): it holds what a load of every document's object holds, reads no document's object but those
the log names since, loses nothing to writers racing a compaction, and reads each object when the segments
cannot be used."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest

from docshelf.index.embedded import EmbeddedIndex, change_log, segments
from docshelf.index.embedded.segments import Manifest, NamespaceSegments, SegmentError, pack, unpack
from docshelf.index.plan import SearchFilters
from docshelf.store.base import ObjectStore
from docshelf.store.fetch import get_many
from tests.functional.test_embedded_reload import NS, CountingStore, built, chunks_of, holding, state, store

__all__ = ["store"]  # the fixture, on a local folder and on moto S3

MANIFEST = f"index/{NS}.segments/manifest.json"


@pytest.fixture(autouse=True)
def small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "SEGMENT_BYTES", 2_000)  # several segments from a few documents


def full_load(store: ObjectStore) -> tuple[object, object]:
    """What a load of every document's object holds (the manifest put aside while it loads)."""
    manifest = store.get(MANIFEST)
    store.delete(MANIFEST)
    try:
        return state(EmbeddedIndex(store, writes_snapshots=False))
    finally:
        if manifest is not None:
            store.put(MANIFEST, manifest)


def segment_keys(store: ObjectStore) -> list[str]:
    return [key for key in store.list(f"index/{NS}.segments/") if key.endswith(".seg")]


def test_a_cold_load_reads_the_segments_and_the_documents_changed_since(store: ObjectStore) -> None:
    writer = built(store, 30)
    manifest = writer.compact(NS)
    assert manifest.documents == 30 and len(manifest.segments) > 2
    writer.upsert(NS, "d1", "r7", chunks_of(1, 7))
    writer.delete(NS, "d2")
    writer.upsert(NS, "d40", "r0", chunks_of(40, 0))
    counting = CountingStore(store)

    reader = EmbeddedIndex(counting, writes_snapshots=False)
    loaded = state(reader)

    assert counting.listings == 0
    assert counting.documents_read() == {"d1", "d2", "d40"}
    assert holding(reader, "w1r7") == {c.chunk_id for c in chunks_of(1, 7)}
    assert holding(reader, "w2r0") == set() and holding(reader, "w1r0") == set()
    assert loaded == full_load(store)
    assert reader._namespaces[NS].log_entry == writer._namespaces[NS].log_entry


def test_a_reader_that_cannot_follow_the_log_reloads_from_the_segments(store: ObjectStore) -> None:
    writer = built(store, 20)
    writer.compact(NS)
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    reader.reader(NS, 1).count(NS, SearchFilters())
    writer.upsert(NS, "d3", "r4", chunks_of(3, 4))
    for key in list(store.list(f"index/{NS}.changes/")):  # unreadable: the reader reads the namespace whole
        if key.endswith(".json"):
            store.put(key, b"{damaged")
    writer.compact(NS)  # from each object, as the log cannot be followed from the segments before
    counting.listings = 0
    counting.read.clear()

    reader.reader(NS, 2)

    assert counting.listings == 0 and counting.documents_read() == set()
    assert holding(reader, "w3r4") == {c.chunk_id for c in chunks_of(3, 4)}
    assert state(reader) == full_load(store)


def test_a_writer_compacts_after_as_many_log_entries_and_retires_old_segments(
    store: ObjectStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EmbeddedIndex, "COMPACT_AFTER_ENTRIES", 3)
    writer = built(store, 10)  # entry 1
    assert store.get(MANIFEST) is None
    generations: list[Manifest] = []
    for revision in range(1, 10):  # entries 2 to 10: compactions at 3, 6 and 9
        writer.upsert(NS, f"d{revision}", f"r{revision}", chunks_of(revision, revision))
        manifest = NamespaceSegments(store, "index").manifest(NS)
        if manifest is not None and (not generations or generations[-1].log_entry != manifest.log_entry):
            generations.append(manifest)

    assert [manifest.log_entry for manifest in generations] == [3, 6, 9]
    kept = {segment.key for manifest in generations[-2:] for segment in manifest.segments}
    assert set(segment_keys(store)) == kept  # the first generation's segments are deleted by the third compaction
    assert state(EmbeddedIndex(store, writes_snapshots=False)) == full_load(store)


def test_a_writer_compacts_after_as_many_documents(store: ObjectStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EmbeddedIndex, "COMPACT_AFTER_DOCUMENTS", 25)
    built(store, 30)
    manifest = NamespaceSegments(store, "index").manifest(NS)
    assert manifest is not None and manifest.documents == 30 and manifest.log_entry == 1


def test_writers_racing_a_compaction_lose_no_change(store: ObjectStore) -> None:
    built(store, 12).compact(NS)
    writers = [EmbeddedIndex(store) for _ in range(2)]
    errors: list[BaseException] = []
    done = threading.Event()

    def publish(number: int) -> None:
        try:
            for revision in range(1, 9):
                document = 2 * revision + number
                writers[number].upsert(NS, f"d{document}", f"r{revision}", chunks_of(document, revision))
                if revision % 3 == 0:
                    writers[number].delete(NS, f"d{document - 2}")
        except BaseException as error:
            errors.append(error)

    def compact() -> None:
        compactor = EmbeddedIndex(store)
        while not done.is_set():
            try:
                compactor.compact(NS)
            except BaseException as error:
                errors.append(error)
                return

    threads = [threading.Thread(target=publish, args=(number,)) for number in range(2)]
    compacting = threading.Thread(target=compact)
    compacting.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    compacting.join()

    assert errors == []
    expected = {f"d{n}": "r0" for n in range(12)}
    for number in range(2):  # the writers write documents of their own
        for revision in range(1, 9):
            expected[f"d{2 * revision + number}"] = f"r{revision}"
            if revision % 3 == 0:
                expected.pop(f"d{2 * revision + number - 2}")
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    held = {(chunk.document_id, chunk.revision) for chunk in reader.list_chunks(NS, SearchFilters(), 10_000)}
    assert counting.listings == 0
    assert held == set(expected.items())
    assert state(reader) == full_load(store)


@pytest.mark.parametrize("damage", ["segment bytes", "segment missing", "manifest", "foreign record"])
def test_damaged_segments_fall_back_to_each_document(
    store: ObjectStore, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    writer = built(store, 20)
    manifest = writer.compact(NS)
    writer.upsert(NS, "d1", "r7", chunks_of(1, 7))
    first = manifest.segments[1].key
    if damage == "segment bytes":
        raw = bytearray(store.get(first) or b"")
        raw[len(raw) // 2] ^= 0xFF
        store.put(first, bytes(raw))
    elif damage == "segment missing":
        store.delete(first)
    elif damage == "manifest":
        store.put(MANIFEST, (store.get(MANIFEST) or b"")[:-20])
    else:  # a record whose object is another document's, with the manifest naming the segment as it is now
        records = list(unpack(store.get(first) or b""))
        records[0] = (records[0][0], records[1][1])
        NamespaceSegments(store, "index").write(NS, manifest.log_entry, records, None)
    counting = CountingStore(store)

    with caplog.at_level(logging.WARNING, logger="docshelf.index.embedded.index"):
        loaded = state(EmbeddedIndex(counting, writes_snapshots=False))

    assert "segments not used, each document is read" in caplog.text
    assert counting.listings == 1
    assert loaded == full_load(store)


def test_a_segment_holds_each_object_byte_for_byte() -> None:
    records = [("d1", b'{"a": 1}'), ("d\u00e9/2", b""), ("d3", bytes(range(256)))]
    raw = pack(records)
    assert list(unpack(raw)) == records
    for damaged in (raw[:-1], b"other" + raw[5:], raw[: len(raw) - 258]):
        with pytest.raises(SegmentError):
            list(unpack(damaged))


def test_segments_are_read_a_few_at_a_time(store: ObjectStore) -> None:
    for n in range(20):
        store.put(f"k/{n}", b"x")
    counting = CountingStore(store)
    read = get_many(counting, [f"k/{n}" for n in range(20)], workers=2, ahead=1)
    next(read)
    assert len(counting.read) <= 3  # two in flight and the one taken
    assert len(list(read)) == 19
    with pytest.raises(ValueError, match="at least 1"):
        list(get_many(store, ["k/1", "k/2"], ahead=0))


def iterate(records: list[tuple[str, bytes]], fail_after: int) -> Iterator[tuple[str, bytes]]:
    for number, record in enumerate(records):
        if number == fail_after:
            raise OSError("the store went away")
        yield record


def test_a_failed_compaction_leaves_the_manifest_before_and_no_segment(store: ObjectStore) -> None:
    writer = built(store, 20)
    before = writer.compact(NS)
    written = set(segment_keys(store))
    records = [(f"d{n}", b"x" * 900) for n in range(10)]
    with pytest.raises(OSError, match="went away"):
        NamespaceSegments(store, "index").write(NS, 5, iterate(records, 7), before)
    assert set(segment_keys(store)) == written
    assert NamespaceSegments(store, "index").manifest(NS) == before


class NoDeletes(CountingStore):
    def delete(self, key: str) -> None:
        raise PermissionError(f"not allowed to delete {key}")


def test_segments_that_cannot_be_retired_leave_the_compaction_written(
    store: ObjectStore, caplog: pytest.LogCaptureFixture
) -> None:
    writer = built(store, 10)
    first = writer.compact(NS)
    writer.compact(NS)  # retires the first generation: the next compaction deletes it
    with caplog.at_level(logging.WARNING, logger="docshelf.index.embedded.segments"):
        third = EmbeddedIndex(NoDeletes(store)).compact(NS)
    assert "not deleted" in caplog.text
    assert NamespaceSegments(store, "index").manifest(NS) == third
    assert {segment.key for segment in first.segments} <= set(segment_keys(store))
    assert state(EmbeddedIndex(store, writes_snapshots=False)) == full_load(store)


def test_segments_far_behind_the_log_are_not_used(store: ObjectStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(change_log, "MAX_ENTRIES", 3)
    writer = built(store, 10)
    writer.compact(NS)
    for revision in range(1, 6):
        writer.upsert(NS, "d0", f"r{revision}", chunks_of(0, revision))
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    assert holding(reader, "w0r5") == {c.chunk_id for c in chunks_of(0, 5)}
    assert counting.listings == 1
    assert state(reader) == full_load(store)
