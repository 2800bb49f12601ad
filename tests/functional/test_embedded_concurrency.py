"""The embedded index is safe for concurrent readers: processes that open the store while another process
upserts, deletes and writes snapshots always see each document whole, in one revision, with postings that
match its chunks; threads sharing one index search while it is written."""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.plan import SearchFilters
from docshelf.model import Chunk
from docshelf.store import LocalStore

DOCUMENTS = 6
WRITE_SECONDS = 2.0


def chunks_of(document: int, revision: int) -> list[Chunk]:
    """A revision's chunks: their number depends on the revision, and each holds the word w<doc>r<rev>."""
    return [
        Chunk(
            chunk_id=f"d{document}-r{revision}-{i}", document_id=f"d{document}", namespace="ns", type="text",
            text=f"w{document}r{revision} shared filler {i} " + "padding " * (i * 3), section_path=("S",),
            pages=(1,), token_count=8, ordinal=i, source_file_name=f"d{document}.txt", revision=f"r{revision}",
        )
        for i in range(1 + (document + revision) % 4)
    ]  # fmt: skip


def write(root: str, seconds: float) -> int:
    """Upsert new revisions, delete now and then, and write snapshots, for `seconds`; the number of writes."""
    index = EmbeddedIndex(LocalStore(root))
    index.SNAPSHOT_AFTER_CHUNKS = 1
    rng = random.Random(4)
    revision, writes, end = 0, 0, time.monotonic() + seconds
    while time.monotonic() < end:
        revision += 1
        document = rng.randrange(DOCUMENTS)
        if rng.random() < 0.15:
            index.delete("ns", f"d{document}")
        else:
            index.upsert("ns", f"d{document}", f"r{revision}", chunks_of(document, revision))
        if revision % 3 == 0:
            index.commit()
        writes += 1
    return writes


def check_loads(root: str, until: float) -> int:
    """Open the store again and again until `until`, checking what each load sees; the number of loads."""
    loads = 0
    while time.monotonic() < until or not loads:
        index = EmbeddedIndex(LocalStore(root), writes_snapshots=False)
        live = index.list_chunks("ns", SearchFilters(), 1000)
        by_document: dict[str, set[str]] = {}
        for chunk in live:
            by_document.setdefault(chunk.document_id, set()).add(chunk.revision)
        for document_id, revisions in by_document.items():
            assert len(revisions) == 1, f"{document_id} mixes revisions {revisions}"
            document, revision = int(document_id[1:]), int(revisions.pop()[1:])
            expected = {chunk.chunk_id for chunk in chunks_of(document, revision)}
            held = {chunk.chunk_id for chunk in live if chunk.document_id == document_id}
            assert held == expected, f"{document_id} r{revision} is not whole"
            ranked = index.rank("ns", "content", [f"w{document}r{revision}"], SearchFilters(), 100)
            assert {chunk_id for chunk_id, _ in ranked} == expected, f"postings of {document_id} r{revision}"
        assert index.count("ns", SearchFilters()) == len(live)
        loads += 1
    return loads


@pytest.mark.slow
def test_processes_reading_while_another_writes_see_whole_documents(tmp_path: Path) -> None:
    root = str(tmp_path)
    EmbeddedIndex(LocalStore(root)).upsert("ns", "d0", "r0", chunks_of(0, 0))
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=3, mp_context=context) as pool:
        writer = pool.submit(write, root, WRITE_SECONDS)
        until = time.monotonic() + WRITE_SECONDS
        readers = [pool.submit(check_loads, root, until) for _ in range(2)]
        assert writer.result() > 20
        assert all(reader.result() >= 1 for reader in readers)
    assert LocalStore(root).get("index/ns.snapshot") is not None


def test_threads_search_one_index_while_it_is_written(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.SNAPSHOT_AFTER_CHUNKS = 1
    errors: list[BaseException] = []
    done = threading.Event()

    def search() -> None:
        try:
            while not done.is_set():
                for chunk_id, _ in index.rank("ns", "content", ["shared", "filler"], SearchFilters(), 50):
                    assert chunk_id.startswith("d")
                index.count("ns", SearchFilters())
        except BaseException as error:
            errors.append(error)

    searchers = [threading.Thread(target=search) for _ in range(3)]
    for thread in searchers:
        thread.start()
    for revision in range(60):
        document = revision % DOCUMENTS
        index.upsert("ns", f"d{document}", f"r{revision}", chunks_of(document, revision))
        if revision % 7 == 0:
            index.delete("ns", f"d{(revision + 1) % DOCUMENTS}")
        if revision % 5 == 0:
            index.commit()
    done.set()
    for thread in searchers:
        thread.join()
    assert not errors, errors
    assert check_loads(str(tmp_path), 0) == 1  # the store as written, loaded by another index
