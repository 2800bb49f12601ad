"""Namespace snapshots: a new process loads the postings of unchanged documents instead of analyzing them, and
searches exactly as a load without the snapshot does, however the store changed since it was written."""

from __future__ import annotations

import io
import logging
import random
import struct
import zipfile
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from docshelf.index.analyzer import analyze
from docshelf.index.embedded import EmbeddedIndex, namespace_snapshot
from docshelf.index.embedded.analyzed_batch import AnalyzedBatch
from docshelf.index.embedded.bm25 import Vocabulary
from docshelf.index.embedded.namespace_snapshot import SnapshotError, decode
from docshelf.index.plan import SearchFilters
from docshelf.model import Chunk
from docshelf.serde import dumps, loads
from docshelf.store import LocalStore
from docshelf.versions import ANALYZER_VERSION
from tests.unit.test_embedded_index import WORDS, _all_rankings, make_chunk

TEXTS = [*WORDS[:40], "TX-100", "v2.3.1", "阀门维修", "東京です", "ops@corp.com"]
SNAPSHOT_KEY = "index/ns.snapshot"


def _document(rng: random.Random, document_id: str, first: int) -> list[Chunk]:
    return [
        make_chunk(first + i, " ".join(rng.choices(TEXTS, k=rng.randint(1, 20))), document_id,
                   section_path=(f"Part {rng.randrange(3)}",))
        for i in range(rng.randint(1, 5))
    ]  # fmt: skip


class CountingIndex(EmbeddedIndex):
    """Counts the chunks it analyzes."""

    SNAPSHOT_AFTER_CHUNKS = 1

    def __init__(self, store: LocalStore) -> None:
        super().__init__(store)
        self.analyzed = 0

    def _analyzed(self, documents: Sequence[tuple[str, Sequence[Chunk]]]) -> AnalyzedBatch:
        self.analyzed += sum(len(chunks) for _, chunks in documents)
        return super()._analyzed(documents)


def _as_without_snapshot(store: LocalStore, live: list[Chunk]) -> dict[tuple[str, str], object]:
    """Every channel's rankings (`_all_rankings`) of the namespace loaded by analyzing every document, the
    snapshot set aside and put back. Scores are compared to 1e-12: the mean idf that replaces a negative idf
    sums the idfs in term-id order, which differs between a load that analyzes and one that adopts."""
    raw = store.get(SNAPSHOT_KEY)
    store.delete(SNAPSHOT_KEY)
    index = EmbeddedIndex(store)
    index.SNAPSHOT_AFTER_CHUNKS = 1 << 30
    rankings = _all_rankings(index, live)
    if raw is not None:
        store.put(SNAPSHOT_KEY, raw)
    assert any(rankings.values())
    return {key: pytest.approx(ranked, rel=1e-12) for key, ranked in rankings.items()}


def _build(store: LocalStore, documents: int = 8, seed: int = 3) -> dict[str, list[Chunk]]:
    rng = random.Random(seed)
    index = CountingIndex(store)
    built = {f"d{d}": _document(rng, f"d{d}", 10 * d) for d in range(documents)}
    for document_id, chunks in built.items():
        index.upsert("ns", document_id, "r1", chunks)
    index.commit()
    return built


def test_a_new_process_loads_the_snapshot_and_searches_as_without_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    built = _build(store)
    assert store.get(SNAPSHOT_KEY) is not None
    live = [chunk for chunks in built.values() for chunk in chunks]
    loaded = CountingIndex(store)
    assert _all_rankings(loaded, live) == _as_without_snapshot(store, live)
    assert loaded.analyzed == 0  # every posting came from the snapshot
    assert loaded.count("ns", SearchFilters()) == len(live)
    assert loaded.fetch("ns", [live[0].chunk_id]) == [live[0]]
    terms = analyze(built["d1"][0].text)[:1]
    in_d1 = loaded.rank("ns", "content", terms, SearchFilters(documents=("d1",)), 10)
    assert in_d1 and {chunk_id for chunk_id, _ in in_d1} <= {chunk.chunk_id for chunk in built["d1"]}


def test_documents_changed_since_the_snapshot_are_analyzed_and_the_rest_loaded(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    built = _build(store)
    writer = EmbeddedIndex(store)  # another process: no refresh, so the snapshot stays as it was
    writer.SNAPSHOT_AFTER_CHUNKS = 1 << 30
    rng = random.Random(9)
    built["d2"] = _document(rng, "d2", 500)
    writer.upsert("ns", "d2", "r2", built["d2"])
    writer.delete("ns", "d5")
    del built["d5"]
    built["d9"] = _document(rng, "d9", 600)
    writer.upsert("ns", "d9", "r1", built["d9"])
    live = [chunk for chunks in built.values() for chunk in chunks]

    loaded = CountingIndex(store)
    loaded.SNAPSHOT_AFTER_CHUNKS = 1 << 30
    assert _all_rankings(loaded, live) == _as_without_snapshot(store, live)
    assert loaded.analyzed == len(built["d2"]) + len(built["d9"])
    assert loaded.count("ns", SearchFilters()) == len(live)
    assert loaded.fetch("ns", ["c0050"]) == []  # d5's first chunk

    loaded.delete("ns", "d1")  # a document taken from the snapshot is removed like any other
    del built["d1"]
    live = [chunk for chunks in built.values() for chunk in chunks]
    assert _all_rankings(loaded, live) == _as_without_snapshot(store, live)


def test_snapshot_terms_join_a_vocabulary_that_numbers_them_differently(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    built = _build(store)
    live = [chunk for chunks in built.values() for chunk in chunks]
    index = CountingIndex(store)
    rng = random.Random(1)
    other = list(reversed(TEXTS))  # gives the shared vocabulary these terms first, in another order
    index.upsert("other", "x", "r1", [make_chunk(900, " ".join(rng.sample(other, len(other))), "x")])
    analyzed = index.analyzed
    assert _all_rankings(index, live) == _as_without_snapshot(store, live)
    assert index.analyzed == analyzed


def test_a_load_that_analyzed_many_chunks_writes_the_snapshot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    built = _build(store)
    store.delete(SNAPSHOT_KEY)
    reader = CountingIndex(store)
    reader.count("ns", SearchFilters())
    assert reader.analyzed == sum(map(len, built.values()))
    assert store.get(SNAPSHOT_KEY) is not None
    next_reader = CountingIndex(store)
    next_reader.count("ns", SearchFilters())
    assert next_reader.analyzed == 0


class ReadOnlyStore(LocalStore):
    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        raise PermissionError(f"read-only: {key}")


def test_a_store_that_refuses_the_snapshot_still_loads(tmp_path, caplog: pytest.LogCaptureFixture) -> None:  # type: ignore[no-untyped-def]
    built = _build(LocalStore(tmp_path))
    LocalStore(tmp_path).delete(SNAPSHOT_KEY)
    reader = CountingIndex(ReadOnlyStore(tmp_path))
    with caplog.at_level(logging.WARNING, logger="docshelf.index.embedded"):
        assert reader.count("ns", SearchFilters()) == sum(map(len, built.values()))
    assert "snapshot not written" in caplog.text
    assert LocalStore(tmp_path).get(SNAPSHOT_KEY) is None


def _damaged(raw: bytes) -> dict[str, bytes]:
    with np.load(io.BytesIO(raw)) as stored:
        arrays = {name: stored[name] for name in stored.files}
    out_of_range = dict(arrays, **{"content.rows": arrays["content.rows"].astype(np.int64) + 1000})

    def saved(members: dict[str, npt.NDArray[np.generic]]) -> bytes:
        buffer = io.BytesIO()
        np.savez(buffer, allow_pickle=False, **members)
        return buffer.getvalue()

    flipped = bytearray(raw)  # the last byte of the content rows' data: the member's CRC-32 no longer holds
    member = zipfile.ZipFile(io.BytesIO(raw)).getinfo("content.rows.npy")
    name_length, extra_length = struct.unpack_from("<HH", raw, member.header_offset + 26)
    flipped[member.header_offset + 30 + name_length + extra_length + member.file_size - 1] ^= 0xFF
    header = loads(arrays["header"].tobytes())
    twice = dict(header, documents=header["documents"] + header["documents"][:1])
    return {
        "one byte flipped": bytes(flipped),
        "a document listed twice": saved(dict(arrays, header=np.frombuffer(dumps(twice), dtype=np.uint8))),
        "a term listed twice": saved(dict(arrays, terms=np.frombuffer(b"valve\nvalve", dtype=np.uint8))),
        "truncated": raw[: len(raw) // 2],
        "not a zip": b"PK\x03\x04" + bytes(100),
        "empty": b"",
        "rows out of range": saved(out_of_range),
        "a channel missing": saved({name: array for name, array in arrays.items() if not name.startswith("term.")}),
    }


def test_a_damaged_snapshot_is_reported_and_the_documents_analyzed(tmp_path, caplog: pytest.LogCaptureFixture) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    built = _build(store)
    live = [chunk for chunks in built.values() for chunk in chunks]
    expected = _as_without_snapshot(store, live)
    for name, raw in _damaged(store.get(SNAPSHOT_KEY) or b"").items():
        with pytest.raises(SnapshotError):
            decode(raw)
        store.put(SNAPSHOT_KEY, raw)
        loaded = CountingIndex(store)
        loaded.SNAPSHOT_AFTER_CHUNKS = 1 << 30
        with caplog.at_level(logging.WARNING, logger="docshelf.index.embedded"):
            assert _all_rankings(loaded, live) == expected, name
        assert loaded.analyzed == len(live), name
        assert "snapshot not used" in caplog.text
        caplog.clear()


def test_a_snapshot_of_another_analyzer_version_is_not_used(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    _build(store)
    monkeypatch.setattr(namespace_snapshot, "ANALYZER_VERSION", ANALYZER_VERSION + 1)
    with pytest.raises(SnapshotError, match="analyzer"):
        decode(store.get(SNAPSHOT_KEY) or b"")
    loaded = CountingIndex(store)
    loaded.count("ns", SearchFilters())
    assert loaded.analyzed > 0
    assert decode(store.get(SNAPSHOT_KEY) or b"").documents  # the load wrote one of the new version


def test_refresh_writes_only_after_enough_new_chunks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    index = EmbeddedIndex(store)
    index.SNAPSHOT_AFTER_CHUNKS = 3
    index.upsert("ns", "d1", "r1", [make_chunk(1, "valve"), make_chunk(2, "seal")])
    index.commit()
    assert store.get(SNAPSHOT_KEY) is None
    index.upsert("ns", "d2", "r1", [make_chunk(3, "pump", "d2")])
    index.commit()
    first = store.get(SNAPSHOT_KEY)
    assert first is not None and [d.document_id for d in decode(first).documents] == ["d1", "d2"]
    index.commit()
    assert store.get(SNAPSHOT_KEY) == first


def test_an_index_that_does_not_write_snapshots_reads_them_and_writes_none(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    built = _build(store)
    reader = EmbeddedIndex(store, writes_snapshots=False)
    reader.SNAPSHOT_AFTER_CHUNKS = 1
    reader.upsert("ns", "d8", "r1", _document(random.Random(2), "d8", 800))
    reader.commit()
    assert [d.document_id for d in decode(store.get(SNAPSHOT_KEY) or b"").documents] == sorted(built)
    store.delete(SNAPSHOT_KEY)
    reader = EmbeddedIndex(store, writes_snapshots=False)
    reader.SNAPSHOT_AFTER_CHUNKS = 1
    assert reader.count("ns", SearchFilters()) > 0
    assert store.get(SNAPSHOT_KEY) is None


@pytest.mark.parametrize("terms", [["a", "b", "c"], ["a", "b", "a", "c", "b"]])
def test_a_vocabulary_numbers_new_terms_by_first_appearance_whether_empty_or_not(terms: list[str]) -> None:
    empty, started = Vocabulary(), Vocabulary()
    started.ids(["z"])
    assert empty.ids(terms).tolist() == [{"a": 0, "b": 1, "c": 2}[term] for term in terms]
    assert started.ids(terms).tolist() == [{"a": 1, "b": 2, "c": 3}[term] for term in terms]
    assert empty.terms == ["a", "b", "c"] and started.terms == ["z", "a", "b", "c"]
    assert dict(empty) == {"a": 0, "b": 1, "c": 2}
