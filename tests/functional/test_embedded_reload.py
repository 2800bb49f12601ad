"""A reader of the embedded index whose namespace version moved on reads only what changed since it loaded (the
change log), on a local folder and on S3 (moto): added, replaced and deleted documents; the whole namespace again
when the log cannot be followed; and what it holds is always what a fresh load of the store holds."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.index.base import DocumentChunks
from docshelf.index.embedded import EmbeddedIndex, change_log
from docshelf.index.plan import SearchFilters
from docshelf.model import Chunk
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.store.base import ObjectStore
from docshelf.store.fetch import get_many

NS = "ns"


class CountingStore:
    """A store that records the keys read and how many listings were made."""

    def __init__(self, inner: ObjectStore) -> None:
        self.inner = inner
        self.read: list[str] = []
        self.listings = 0

    def get(self, key: str) -> bytes | None:
        self.read.append(key)
        return self.inner.get(key)

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        self.inner.put(key, data, content_type=content_type)

    def create(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> bool:
        return self.inner.create(key, data, content_type=content_type)

    def delete(self, key: str) -> None:
        self.inner.delete(key)

    def list(self, prefix: str) -> Iterator[str]:
        self.listings += 1
        return self.inner.list(prefix)

    def documents_read(self) -> set[str]:
        return {key.rsplit("/", 1)[1].removesuffix(".json") for key in self.read if key.startswith(f"index/{NS}/")}


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ObjectStore]:
    if request.param == "local":
        yield LocalStore(tmp_path)
        return
    moto = pytest.importorskip("moto")
    boto3 = pytest.importorskip("boto3")
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    from docshelf.store.s3 import S3Store

    with moto.mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="reload-artifacts")
        yield S3Store("reload-artifacts", prefix="stack", client=client)


def chunks_of(document: int, revision: int) -> list[Chunk]:
    """A revision's chunks (their number depends on it), each holding the word w<doc>r<rev> and shared words."""
    return [
        Chunk(
            chunk_id=f"d{document}-r{revision}-{i}", document_id=f"d{document}", namespace=NS, type="text",
            text=f"w{document}r{revision} shared pump valve {i} " + "seal " * (i + revision % 3), section_path=("S",),
            pages=(1,), token_count=8, ordinal=i, source_file_name=f"d{document}.txt", revision=f"r{revision}",
        )
        for i in range(1 + (document + revision) % 3)
    ]  # fmt: skip


def built(store: ObjectStore, documents: int) -> EmbeddedIndex:
    writer = EmbeddedIndex(store)
    writer.write(NS, [DocumentChunks(f"d{n}", "r0", chunks_of(n, 0)) for n in range(documents)])
    writer.commit()
    return writer


def holding(index: EmbeddedIndex, word: str) -> set[str]:
    return {chunk_id for chunk_id, _ in index.rank(NS, "content", [word], SearchFilters(), 100)}


def state(index: EmbeddedIndex) -> tuple[list[tuple[str, str]], dict[str, list[tuple[str, float]]]]:
    """Every live chunk with its text, and the content and term rankings of a few queries with their scores."""
    chunks = sorted((c.chunk_id, c.text) for c in index.list_chunks(NS, SearchFilters(), 10_000))
    rankings = {
        f"{channel}:{query}": index.rank(NS, channel, [query], SearchFilters(), 1000)
        for channel in ("content", "term")
        for query in ("shared", "seal", "pump", "w1r0", "w2r5")
    }
    return chunks, rankings


def test_a_reader_reads_only_the_documents_added_replaced_or_deleted_since(store: ObjectStore) -> None:
    writer = built(store, 12)
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    assert holding(reader.reader(NS, 1), "w3r0") == {"d3-r0-0"}

    writer.upsert(NS, "d20", "r1", chunks_of(20, 1))  # added
    writer.upsert(NS, "d3", "r4", chunks_of(3, 4))  # replaced
    writer.delete(NS, "d5")  # deleted
    counting.read.clear()
    counting.listings = 0
    reader.reader(NS, 2)

    assert counting.documents_read() == {"d20", "d3", "d5"}
    assert counting.listings == 0  # no whole load
    assert holding(reader, "w20r1") == {c.chunk_id for c in chunks_of(20, 1)}
    assert holding(reader, "w3r0") == set()
    assert holding(reader, "w3r4") == {c.chunk_id for c in chunks_of(3, 4)}
    assert not [c for c in reader.list_chunks(NS, SearchFilters(), 1000) if c.document_id == "d5"]
    assert state(reader) == state(EmbeddedIndex(store, writes_snapshots=False))


def test_a_search_after_a_delete_never_returns_the_deleted_document(store: ObjectStore) -> None:
    writer = built(store, 6)
    reader = EmbeddedIndex(store, writes_snapshots=False)
    request = SearchRequest(namespace=NS, query="w2r0 shared pump")
    assert "d2" in {r.chunk.document_id for r in search(reader.reader(NS, 1), request).results}

    writer.delete(NS, "d2")
    response = search(reader.reader(NS, 2), request)

    assert response.results
    assert "d2" not in {r.chunk.document_id for r in response.results}
    assert "w2r0" not in response.evidence_text
    assert reader.fetch(NS, [c.chunk_id for c in chunks_of(2, 0)]) == []


def test_a_version_seen_already_reads_nothing(store: ObjectStore) -> None:
    built(store, 3)
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    reader.reader(NS, 4).count(NS, SearchFilters())
    counting.read.clear()
    reader.reader(NS, 4).count(NS, SearchFilters())
    reader.reader(NS, 3).count(NS, SearchFilters())  # a search that read the version before the last one
    assert counting.read == []


def test_changes_applied_one_by_one_give_what_a_fresh_load_gives(store: ObjectStore) -> None:
    writer = built(store, 8)
    reader = EmbeddedIndex(store, writes_snapshots=False)
    reader.reader(NS, 0).count(NS, SearchFilters())
    rng = random.Random(3)
    for version in range(1, 25):
        document = rng.randrange(12)
        if rng.random() < 0.25:
            writer.delete(NS, f"d{document}")
        elif rng.random() < 0.3:
            writer.write(NS, [DocumentChunks(f"d{n}", f"r{version}", chunks_of(n, version)) for n in (document, 13)])
        else:
            writer.upsert(NS, f"d{document}", f"r{version}", chunks_of(document, version))
        if version % 4 == 0:
            writer.commit()
        if version % 3 == 0:  # a reader several changes behind
            assert state(reader.reader(NS, version)) == state(EmbeddedIndex(store, writes_snapshots=False))


@pytest.mark.parametrize("damage", ["unreadable entry", "missing entry", "unreadable head", "log started anew"])
def test_a_log_that_cannot_be_followed_reloads_the_namespace_whole(
    store: ObjectStore, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    writer = built(store, 5)
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    reader.reader(NS, 1).count(NS, SearchFilters())
    writer.upsert(NS, "d1", "r7", chunks_of(1, 7))
    writer.delete(NS, "d2")
    entries = sorted(key for key in store.list(f"index/{NS}.changes/") if key.endswith(".json"))
    if damage == "unreadable entry":
        store.put(entries[-1], b"{not json")
    elif damage == "missing entry":
        store.delete(entries[-2])
    elif damage == "unreadable head":
        store.put(f"index/{NS}.changes/head", b"many")
    else:  # the log removed after the reader loaded, then two writes: its numbers start again under the reader's
        for key in list(store.list(f"index/{NS}.changes/")):
            store.delete(key)
        writer.upsert(NS, "d1", "r7", chunks_of(1, 7))
        writer.delete(NS, "d2")
    counting.listings = 0

    with caplog.at_level(logging.WARNING, logger="docshelf.index.embedded.index"):
        reader.reader(NS, 2)

    assert "change log cannot be followed" in caplog.text
    assert counting.listings == 1
    assert holding(reader, "w1r7") == {c.chunk_id for c in chunks_of(1, 7)}
    assert holding(reader, "w2r0") == set()
    assert state(reader) == state(EmbeddedIndex(store, writes_snapshots=False))


def test_a_reader_far_behind_reloads_the_namespace_whole(store: ObjectStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(change_log, "MAX_ENTRIES", 3)
    writer = built(store, 4)
    counting = CountingStore(store)
    reader = EmbeddedIndex(counting, writes_snapshots=False)
    reader.reader(NS, 1).count(NS, SearchFilters())
    for revision in range(1, 6):
        writer.upsert(NS, "d0", f"r{revision}", chunks_of(0, revision))
    counting.listings = 0
    reader.reader(NS, 2)
    assert counting.listings == 1
    assert holding(reader, "w0r5") == {c.chunk_id for c in chunks_of(0, 5)}


def test_writers_racing_on_the_log_take_every_number_once(store: ObjectStore) -> None:
    log = change_log.ChangeLog(store, "index")
    numbers: list[int] = []
    lock = threading.Lock()

    def append(worker: int) -> None:
        for n in range(5):
            number = log.append(NS, [f"d{worker}-{n}"])
            with lock:
                numbers.append(number)

    threads = [threading.Thread(target=append, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(numbers) == list(range(1, 21))
    changes = log.changes_after(NS, 0)
    assert changes is not None
    assert changes.last == 20
    assert changes.documents == {f"d{worker}-{n}" for worker in range(4) for n in range(5)}
    assert log.changes_after(NS, 20) == change_log.Changes(20, frozenset())


def test_readers_beside_a_writer_see_whole_documents_and_end_as_the_store(store: ObjectStore) -> None:
    """Reader threads share one index and follow the version while another index writes: each document they see
    is whole in one revision, with postings that match it; at the end they hold what a fresh load holds."""
    writer = built(store, 6)
    reader = EmbeddedIndex(store, writes_snapshots=False)
    version = {"now": 0}
    done = threading.Event()
    failures: list[BaseException] = []

    def write() -> None:
        rng = random.Random(5)
        try:
            for revision in range(1, 31):
                document = rng.randrange(8)
                if rng.random() < 0.2:
                    writer.delete(NS, f"d{document}")
                else:
                    writer.upsert(NS, f"d{document}", f"r{revision}", chunks_of(document, revision))
                version["now"] += 1
        except BaseException as error:
            failures.append(error)
        finally:
            done.set()

    def read() -> None:
        try:
            while not done.is_set():
                index = reader.reader(NS, version["now"])
                live = index.list_chunks(NS, SearchFilters(), 1000)
                revisions: dict[str, set[str]] = {}
                for chunk in live:
                    revisions.setdefault(chunk.document_id, set()).add(chunk.revision)
                for document_id, seen in revisions.items():
                    assert len(seen) == 1, f"{document_id} mixes revisions {seen}"
                    document, revision = int(document_id[1:]), int(next(iter(seen))[1:])
                    expected = {c.chunk_id for c in chunks_of(document, revision)}
                    assert {c.chunk_id for c in live if c.document_id == document_id} == expected
                    assert holding(index, f"w{document}r{revision}") <= expected
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=write)] + [threading.Thread(target=read) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[0]
    assert state(reader.reader(NS, version["now"] + 1)) == state(EmbeddedIndex(store, writes_snapshots=False))


# The store operations the reload is built on.


def test_create_writes_only_an_absent_key(store: ObjectStore) -> None:
    assert store.create("index/ns.changes/000000000001.json", b"first")
    assert not store.create("index/ns.changes/000000000001.json", b"second")
    assert store.get("index/ns.changes/000000000001.json") == b"first"
    assert list(store.list("index/ns.changes/")) == ["index/ns.changes/000000000001.json"]  # no temporary left


def test_get_many_reads_in_order_with_none_for_missing_keys(store: ObjectStore) -> None:
    keys = [f"objects/{n}" for n in range(40)]
    for key in keys[::2]:
        store.put(key, key.encode())
    found = list(get_many(store, keys, workers=4))
    assert [key for key, _ in found] == keys
    assert [data for _, data in found] == [key.encode() if n % 2 == 0 else None for n, key in enumerate(keys)]
    assert list(get_many(store, keys[:1])) == [(keys[0], keys[0].encode())]
    with pytest.raises(ValueError, match="at least 1"):
        list(get_many(store, keys, workers=0))
