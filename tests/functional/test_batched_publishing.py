from __future__ import annotations

import dataclasses
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import cast

import pytest

from docshelf import forked, pipeline
from docshelf.errors import IndexBackendError
from docshelf.ids import document_id, sha256_hex
from docshelf.index.base import DocumentChunks
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.plan import SearchFilters
from docshelf.local.services import LocalServices
from docshelf.search.request import SearchRequest
from docshelf.search.service import search


def _files(root: Path, count: int) -> list[tuple[Path, str]]:
    root.mkdir(parents=True)
    files = {"broken.pdf": b"%PDF-1.7\n not a pdf at all", "empty.txt": b""}
    for number in range(count):
        files[f"ticket-{number:03}.txt"] = (
            f"Ticket {number}\n\nThe TX-{number} valve leaks at the stem after {number} months. "
            f"Replace seal kit SK-{number}-B."
        ).encode()
    for name, data in files.items():
        (root / name).write_bytes(data)
    return [(root / name, name) for name in sorted(files)]


def _state(services: LocalServices) -> tuple[list[tuple[str, str, str, int]], list[tuple[str, str]]]:
    records = sorted((r.source_key, str(r.status), r.error_code, r.chunk_count) for r in services.registry.list("acme"))
    chunks = services.index.list_chunks("acme", SearchFilters(), 10_000)
    return records, sorted((chunk.chunk_id, chunk.text) for chunk in chunks)


def counted_bulk_upserts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each `EmbeddedIndex.write` call from now on, as they happen."""
    calls: list[int] = []
    write = EmbeddedIndex.write

    def counting(self: EmbeddedIndex, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        calls.append(len(documents))
        return write(self, namespace, documents)

    monkeypatch.setattr(EmbeddedIndex, "write", counting)
    return calls


@pytest.fixture
def serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "spare_cpus", lambda: 1)


@pytest.mark.usefixtures("serial")
def test_ingest_publishes_in_bulk_what_one_upsert_per_file_publishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _files(tmp_path / "docs", 60)
    one_by_one = LocalServices.open(tmp_path / "one-by-one")
    for path, key in files:
        one_by_one.ingest(path.read_bytes(), namespace="acme", source_key=key)

    def refused(*args: object) -> None:
        raise AssertionError("a file was upserted on its own")

    calls = counted_bulk_upserts(monkeypatch)
    monkeypatch.setattr(EmbeddedIndex, "upsert", refused)
    monkeypatch.setattr(pipeline.BatchedPublishing, "PUBLISH_DOCUMENTS", 25)
    bulk = LocalServices.open(tmp_path / "bulk")
    results = list(bulk.ingest_files(files, namespace="acme"))

    assert calls == [25, 25, 10]
    assert sorted(r.source_key for r in results) == [key for _, key in files]
    assert {r.source_key: r.status for r in results}["broken.pdf"] == "failed"
    assert _state(bulk) == _state(one_by_one)
    assert len(_state(bulk)[1]) == 60
    request = SearchRequest("acme", "TX-42 valve", top_k=1)
    found = [search(services.index, request).results[0].chunk for services in (bulk, one_by_one)]
    assert found[0].chunk_id == found[1].chunk_id and found[0].source_file_name == "ticket-042.txt"
    # Persisted: a new process sees the same namespace, and the unchanged files need no new publish.
    reopened = LocalServices.open(tmp_path / "bulk")
    assert _state(reopened) == _state(one_by_one)
    again = list(reopened.ingest_files(files, namespace="acme"))
    assert calls == [25, 25, 10]
    assert sum(r.status == "ok" for r in again) == 60


@pytest.mark.usefixtures("serial")
def test_documents_the_index_refuses_are_named_and_the_rest_of_their_batch_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _files(tmp_path / "docs", 8)
    services = LocalServices.open(tmp_path / "store")
    refused_id = document_id("acme", "ticket-003.txt")
    write = EmbeddedIndex.write

    def refusing(self: EmbeddedIndex, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        write(self, namespace, [document for document in documents if document.document_id != refused_id])
        return {refused_id: "mapper_parsing_exception"}

    monkeypatch.setattr(EmbeddedIndex, "write", refusing)
    with pytest.raises(IndexBackendError, match=f"{refused_id}: mapper_parsing_exception"):
        list(services.ingest_files(files, namespace="acme"))
    records = {r.source_key: r.status for r in services.registry.list("acme")}
    assert "ticket-003.txt" not in records
    assert sum(status == "ok" for status in records.values()) == 7
    assert not [c for c in services.index.list_chunks("acme", SearchFilters(), 100) if c.document_id == refused_id]

    monkeypatch.undo()
    monkeypatch.setattr(forked, "spare_cpus", lambda: 1)
    again = {r.source_key: r.status for r in services.ingest_files(files, namespace="acme")}
    assert again["ticket-003.txt"] == "ok"
    assert len(services.index.list_chunks("acme", SearchFilters(), 100)) == 8


def test_a_new_namespace_publishes_the_batch_of_the_previous_one(tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path / "store")
    publishing = pipeline.BatchedPublishing(services.store, services.registry, services.index, config=services.config)

    def parsed(namespace: str, key: str) -> pipeline.ParseOutcome:
        data = f"{key} holds the word {namespace}word".encode()
        return pipeline.parse_stage(
            services.store, data, namespace=namespace, source_key=key, config=services.config, revision=sha256_hex(data)
        )

    assert publishing.add(parsed("alpha", "a1.txt")) == []
    assert publishing.add(parsed("alpha", "a2.txt")) == []
    ready = publishing.add(parsed("beta", "b1.txt"))
    assert [(r.namespace, r.source_key, r.status) for r in ready] == [
        ("alpha", "a1.txt", "ok"),
        ("alpha", "a2.txt", "ok"),
    ]
    assert services.index.count("alpha", SearchFilters()) == 2
    assert services.index.count("beta", SearchFilters()) == 0
    assert [r.source_key for r in publishing.flush()] == ["b1.txt"]
    assert services.index.count("beta", SearchFilters()) == 1


def test_publish_many_takes_one_namespace_and_each_document_once(tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path / "store")
    refs = [pipeline.DocumentRef(namespace, f"{namespace}-doc", "k.txt", "r1") for namespace in ("alpha", "beta")]
    with pytest.raises(ValueError, match="one namespace"):
        pipeline.publish_many(services.index, services.registry, [(ref, []) for ref in refs])
    with pytest.raises(ValueError, match="each document once"):
        pipeline.publish_many(services.index, services.registry, [(refs[0], []), (refs[0], [])])


@pytest.mark.usefixtures("serial")
def test_a_file_named_twice_is_published_in_two_batches(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Notes\n\nThe DN50 valve suits the cooling loop.", encoding="utf-8")
    services = LocalServices.open(tmp_path / "store")
    results = list(services.ingest_files([(path, "notes.txt"), (path, "notes.txt")], namespace="acme"))
    assert [r.status for r in results] == ["ok", "ok"]
    assert [r.source_key for r in services.registry.list("acme")] == ["notes.txt"]
    assert services.index.count("acme", SearchFilters()) == 1


@pytest.mark.usefixtures("serial")
def test_files_waiting_when_the_command_stops_are_published_by_the_next_ingest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _files(tmp_path / "docs", 12)
    monkeypatch.setattr(pipeline.BatchedPublishing, "PUBLISH_DOCUMENTS", 5)
    services = LocalServices.open(tmp_path / "store")
    results = cast("Generator[pipeline.IngestResult, None, None]", services.ingest_files(files, namespace="acme"))
    first = [next(results) for _ in range(5)]  # the first batch (largest files are parsed first)
    results.close()  # stopped (^C) while the next batch waits
    assert len(services.index.list_chunks("acme", SearchFilters(), 100)) == sum(r.status == "ok" for r in first) < 12

    again = list(services.ingest_files(files, namespace="acme"))
    assert sum(r.status == "ok" for r in again) == 12
    assert len(services.index.list_chunks("acme", SearchFilters(), 100)) == 12
    assert sum(r.status == "ok" for r in services.registry.list("acme")) == 12


@pytest.mark.usefixtures("serial")
def test_files_published_into_one_index_are_published_again_into_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The registry is the store's, the index may change (`--backend opensearch` after the embedded one): a file
    counts as unchanged only for the index it was published into."""
    files = _files(tmp_path / "docs", 3)
    first = LocalServices.open(tmp_path / "store")
    assert {r.status for r in first.ingest_files(files, namespace="acme")} == {"ok", "failed"}
    other = dataclasses.replace(first, index=EmbeddedIndex(first.store, prefix="other-index"))
    assert other.index.count("acme", SearchFilters()) == 0

    again = list(other.ingest_files(files, namespace="acme"))
    assert other.index.count("acme", SearchFilters()) == first.index.count("acme", SearchFilters()) == 3
    assert sorted(r.source_key for r in again if r.status == "ok") == [f"ticket-{n:03}.txt" for n in range(3)]
    assert not any(r.parse_cache_hit is False and r.status == "ok" for r in again)  # from the caches, not re-parsed

    calls = counted_bulk_upserts(monkeypatch)
    list(other.ingest_files(files, namespace="acme"))
    assert calls == []  # unchanged for the index it was last published into
    list(first.ingest_files(files, namespace="acme"))
    assert calls == [3]  # the registry keeps one index per document: going back publishes again


def test_the_vocabulary_is_loaded_before_the_parse_workers_are_forked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf import tokens
    from docshelf.pipeline import local_ingest

    loaded_at_fork: list[int] = []
    parse_in_workers = local_ingest.parse_in_workers

    def recording(*args: object, **kwargs: object) -> object:
        loaded_at_fork.append(tokens.encoding.cache_info().currsize)  # what every forked worker inherits
        return parse_in_workers(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(local_ingest, "parse_in_workers", recording)
    tokens.encoding.cache_clear()
    results = list(LocalServices.open(tmp_path / "store").ingest_files(_files(tmp_path / "docs", 3), namespace="acme"))
    assert loaded_at_fork == [1] and len(results) == 5


@pytest.mark.usefixtures("serial")
def test_files_are_published_64_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Smaller batches leave less to publish after the last file is parsed (docs/evaluation/speed.md, third pass).
    calls = counted_bulk_upserts(monkeypatch)
    results = list(LocalServices.open(tmp_path / "store").ingest_files(_files(tmp_path / "docs", 70), namespace="acme"))
    assert calls == [64, 6] and sum(result.status == "ok" for result in results) == 70
