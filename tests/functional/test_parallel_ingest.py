from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from docshelf import forked, pipeline
from docshelf.index.plan import SearchFilters
from docshelf.local.services import LocalServices
from docshelf.pipeline import local_ingest

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="parse workers are forked")


def _folder(root: Path) -> list[tuple[Path, str]]:
    root.mkdir()
    files = {
        "broken.pdf": b"%PDF-1.7\n this is not really a pdf",
        "empty.txt": b"",
        "notes.md": b"# Notes\n\nShipping takes five days.\n\n| item | days |\n|---|---|\n| valve | 5 |\n",
    }
    for number in range(12):
        sections = "".join(
            f"Section {n}\n\nThe TX-{number}{n} valve needs a seal every {n} months.\n\n" for n in range(40)
        )
        files[f"manual-{number:02}.txt"] = f"Manual {number}\n\n{sections}".encode()
    for name, data in files.items():
        (root / name).write_bytes(data)
    return [(root / name, name) for name in sorted(files)]


def _ingest(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch, workers: int) -> LocalServices:
    monkeypatch.setattr(forked, "spare_cpus", lambda: workers)
    services = LocalServices.open(tmp_path / name / "store")
    files = _folder(tmp_path / name / "docs")
    results = list(services.ingest_files(files, namespace="acme"))
    assert sorted(r.source_key for r in results) == [key for _, key in files]
    return services


def _snapshot(services: LocalServices) -> tuple[list[tuple[str, str, str, int]], list[tuple[str, str]]]:
    records = sorted((r.source_key, str(r.status), r.error_code, r.chunk_count) for r in services.registry.list("acme"))
    chunks = services.index.list_chunks("acme", SearchFilters(), 10_000)
    return records, sorted((chunk.chunk_id, chunk.text) for chunk in chunks)


@needs_fork
def test_parallel_ingest_matches_serial_and_parses_in_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 1)  # threads other tests left behind
    parsed_by = tmp_path / "parsed_by"
    parse_stage = pipeline.parse_stage

    def recording_parse_stage(*args: object, **kwargs: object) -> pipeline.ParseOutcome:
        with parsed_by.open("a") as log:
            log.write(f"{os.getpid()}\n")
        return parse_stage(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(local_ingest, "parse_stage", recording_parse_stage)
    serial = _snapshot(_ingest(tmp_path, "serial", monkeypatch, workers=1))
    assert set(parsed_by.read_text().split()) == {str(os.getpid())}
    parsed_by.unlink()

    parallel_services = _ingest(tmp_path, "parallel", monkeypatch, workers=2)
    pids = parsed_by.read_text().split()
    assert len(pids) == 15 and str(os.getpid()) not in pids
    assert _snapshot(parallel_services) == serial
    records = {r.source_key: (r.status, r.error_code) for r in parallel_services.registry.list("acme")}
    assert records["broken.pdf"] == ("failed", "corrupt") and records["empty.txt"] == ("failed", "empty")
    assert parallel_services.index.count("acme", SearchFilters()) == len(serial[1]) > 12

    # Unchanged files again: every parse is a cache hit and nothing is re-chunked.
    files = [(path, path.name) for path in (tmp_path / "parallel" / "docs").iterdir()]
    again = [r for r in parallel_services.ingest_files(files, namespace="acme") if r.status == "ok"]
    assert len(again) == 13 and all(r.parse_cache_hit and r.chunk_cache_hit for r in again)
    assert _snapshot(parallel_services) == serial


@needs_fork
def test_parse_workers_chunk_what_they_parse_and_send_back_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer only publishes: each fresh parse is chunked, and its artifacts written, in its parse worker."""
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    chunked_by = tmp_path / "chunked_by"
    chunk_without_writing = pipeline.chunk_without_writing

    def recording_chunk(*args: object, **kwargs: object) -> pipeline.Chunked:
        with chunked_by.open("a") as log:
            log.write(f"{os.getpid()}\n")
        return chunk_without_writing(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline.batched, "chunk_without_writing", recording_chunk)
    sent_back: list[str] = []
    add_next = pipeline.BatchedPublishing.add_next

    def recording_add_next(self: pipeline.BatchedPublishing, outcomes: object) -> object:
        def seen() -> object:
            for outcome in outcomes:  # type: ignore[attr-defined]
                sent_back.append(type(outcome).__name__)
                yield outcome

        return add_next(self, seen())  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline.BatchedPublishing, "add_next", recording_add_next)
    services = _ingest(tmp_path, "parallel", monkeypatch, workers=2)
    pids = chunked_by.read_text().split()
    assert len(pids) == 13 and str(os.getpid()) not in pids  # the 13 readable files, none chunked by the writer
    assert sent_back.count("ChunkedFile") == 13 and sent_back.count("ParseOutcome") == 2  # the two failures
    nav = services.store.get(f"docs/acme/{pipeline.document_ref('acme', 'notes.md', '').document_id}/doc_nav.json")
    assert nav is not None and b"Notes" in nav
