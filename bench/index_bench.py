#!/usr/bin/env python3
"""The embedded index at scale: build rate (bulk and per document), the namespace snapshot, load time with
and without it, search latency through search/service.py with and without the semantic channel, memory.

The warm build carries a 384-dim vector per chunk (bench/hybrid_bench.py's clustered synthetic vectors), so the
snapshot, the load and the memory include them; hybrid searches take their query vector ready-made (the local
model's query embedding time is reported apart, by bench/hybrid_bench.py).

Chunks are generated from a Zipf-distributed vocabulary (so common and rare terms behave as in
text); a chunk is CHUNK_WORDS words, about a 500-token chunk's analyzed size in the content channel.
"""

from __future__ import annotations

import gc
import itertools
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from bench.hybrid_bench import MODEL, PrecomputedEmbedder, clustered_vectors  # noqa: E402
from docshelf.index.base import DocumentChunks  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.index.embedded.bm25 import Vocabulary  # noqa: E402
from docshelf.index.embedded.term_table import TermTable  # noqa: E402
from docshelf.model import Chunk  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402
from docshelf.tokens import count_tokens  # noqa: E402

CHUNKS = 20_000  # the issue 5 target is 100k: `python -m bench.index_bench 100000`
CHUNK_WORDS = 120
CHUNKS_PER_DOCUMENT = 50
VOCABULARY = 50_000
BULK_DOCUMENTS = 100  # 5,000 chunks an `write` call
PER_DOCUMENT_CHUNKS = 20_000


def pseudo_word(number: int) -> str:
    letters = "bcdfghklmnprstvz"
    vowels = "aeiou"
    word = ""
    while True:
        number, rest = divmod(number, len(letters) * len(vowels))
        word += letters[rest % len(letters)] + vowels[rest // len(letters)]
        if not number:
            return word


def make_chunks(count: int, seed: int = 1) -> list[Chunk]:
    rng = random.Random(seed)
    words = [pseudo_word(i) for i in range(VOCABULARY)]
    cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(VOCABULARY)))
    chunks = []
    for i in range(count):
        document = f"d{i // CHUNKS_PER_DOCUMENT:05d}"
        text = " ".join(rng.choices(words, cum_weights=cumulative, k=CHUNK_WORDS))
        chunks.append(
            Chunk(
                chunk_id=f"c{i:07d}", document_id=document, namespace="bench", type="text", text=text,
                section_path=(f"Section {i % 7}",), pages=(1 + i % 30,), token_count=CHUNK_WORDS * 2,
                ordinal=i % CHUNKS_PER_DOCUMENT, source_file_name=f"{document}.pdf",
            )
        )  # fmt: skip
    return chunks


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    status = Path("/proc/self/status")
    if not status.exists():
        return float("nan")
    line = next(line for line in status.read_text().splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def documents_of(chunks: list[Chunk], vectors: Any = None) -> list[DocumentChunks]:
    """The chunks as documents, with their rows of `vectors` when given."""
    return [
        DocumentChunks(
            chunks[start].document_id,
            "r1",
            chunks[start : start + CHUNKS_PER_DOCUMENT],
            None if vectors is None else vectors[start : start + CHUNKS_PER_DOCUMENT],
            None if vectors is None else MODEL,
        )
        for start in range(0, len(chunks), CHUNKS_PER_DOCUMENT)
    ]


class Clock:
    """Wall and CPU seconds of a block (CPU time is the steadier number on a shared machine)."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu

    def rate(self, count: int) -> str:
        wall = f"{self.wall:.1f} s, {count / self.wall:,.0f} chunks/s"
        return f"{wall} (CPU {self.cpu:.1f} s, {count / self.cpu:,.0f} chunks/s)"


def bulk_build(index: EmbeddedIndex, chunks: list[Chunk], vectors: Any = None) -> Clock:
    """From chunk texts to a searchable index persisted in the store (one object per document), through
    `write` in batches of BULK_DOCUMENTS documents; postings are merged before it returns."""
    documents = documents_of(chunks, vectors)
    with Clock() as clock:
        for start in range(0, len(documents), BULK_DOCUMENTS):
            index.write("bench", documents[start : start + BULK_DOCUMENTS])
    return clock


def per_document_build(index: EmbeddedIndex, chunks: list[Chunk]) -> Clock:
    """`upsert` document by document (what `docshelf ingest` and the publish Lambda do)."""
    with Clock() as clock:
        for document in documents_of(chunks):
            index.upsert("bench", document.document_id, document.revision, document.chunks)
    return clock


def analysis_only(chunks: list[Chunk]) -> Clock:
    """Chunk texts to content and term-channel term ids (`TermTable.text_terms`), in calls of the bulk build's
    size, after one pass over the same texts (so it measures pieces seen before, as most are in a long build)."""
    table = TermTable(Vocabulary())
    batches = [[chunk.text for chunk in chunks[start : start + 5_000]] for start in range(0, len(chunks), 5_000)]
    for texts in batches:
        table.text_terms(texts)
    with Clock() as clock:
        for texts in batches:
            table.text_terms(texts)
    return clock


def timed_search(index: EmbeddedIndex, query: str, embedder: PrecomputedEmbedder | None = None) -> float:
    started = time.perf_counter()
    search(index, SearchRequest("bench", query, top_k=10), embedder=embedder)
    return time.perf_counter() - started


def search_latencies(
    index: EmbeddedIndex, queries: list[str], embedder: PrecomputedEmbedder
) -> tuple[list[float], list[float]]:
    """Milliseconds of each query without and with the semantic channel, alternated so that both see the same
    load of a shared machine."""
    lexical, hybrid = [], []
    for query in queries:
        lexical.append(timed_search(index, query) * 1000)
        hybrid.append(timed_search(index, query, embedder) * 1000)
    return lexical, hybrid


def print_searches(lexical: list[float], hybrid: list[float], vector_mb: float, count: int) -> None:
    print(f"| search p50 / p95 ({len(lexical)} queries, 2-6 terms, top 10) | {percentiles(lexical)} |")
    channel = "the same with the semantic channel (int8 vectors, inverted lists from 20k rows; query vector ready)"
    print(f"| {channel} | {percentiles(hybrid)} |")
    print(f"| vectors in memory (int8 codes, scales) | {vector_mb:.1f} MB, {vector_mb * 100_000 / count:.1f} MB "
          "per 100k chunks |")  # fmt: skip


def percentiles(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    return f"{statistics.median(ordered):.1f} ms / {ordered[int(len(ordered) * 0.95) - 1]:.1f} ms"


def main(count: int = CHUNKS) -> None:
    chunks = make_chunks(count)
    rng = random.Random(7)
    queries = [" ".join(rng.sample(chunks[rng.randrange(count)].text.split(), k=rng.randint(2, 6))) for _ in range(200)]
    per_document_chunks = chunks[: min(count, PER_DOCUMENT_CHUNKS)]
    count_tokens("load the token encoder before any search is timed")
    rss_before = peak_rss_mb()
    with tempfile.TemporaryDirectory() as tmp:
        cold = bulk_build(EmbeddedIndex(LocalStore(Path(tmp) / "cold")), chunks)
        per_document = per_document_build(EmbeddedIndex(LocalStore(Path(tmp) / "one")), per_document_chunks)
    gc.collect()
    analysis = analysis_only(chunks)
    gc.collect()
    with tempfile.TemporaryDirectory() as tmp:
        index = EmbeddedIndex(LocalStore(tmp))
        warm = bulk_build(index, chunks, vectors := clustered_vectors(count))
        first_search = timed_search(index, queries[0])
        latencies, hybrid = search_latencies(index, queries, PrecomputedEmbedder(vectors))
        vector_mb = index._namespace("bench").vectors.memory_bytes() / 1e6  # type: ignore[union-attr]
        with Clock() as snapshot:
            index.commit()
        snapshot_mb = (Path(tmp) / "index" / "bench.snapshot").stat().st_size / 1e6
        del index
        gc.collect()
        with Clock() as load:
            reopened = EmbeddedIndex(LocalStore(tmp))
            reopened.count("bench", SearchRequest("bench", "x").filters)
        first_after_load = timed_search(reopened, queries[1])
        loaded_rss = current_rss_mb()
        store_mb = sum(f.stat().st_size for f in Path(tmp).rglob("*") if f.is_file()) / 1e6 - snapshot_mb
        del reopened
        gc.collect()
        (Path(tmp) / "index" / "bench.snapshot").unlink()
        with Clock() as analyzing_load:
            analyzing = EmbeddedIndex(LocalStore(tmp))
            analyzing.SNAPSHOT_AFTER_CHUNKS = count + 1  # measure the load alone, without writing a snapshot
            analyzing.count("bench", SearchRequest("bench", "x").filters)
        del analyzing
    print(f"| embedded index, {count:,} chunks of {CHUNK_WORDS} words, {CHUNKS_PER_DOCUMENT} per document | value |")
    print("|---|---|")
    print(f"| build to a searchable, persisted index (`write`, {BULK_DOCUMENTS} documents a call), all words new "
          f"| {cold.rate(count)} |")  # fmt: skip
    print(f"| the same, analyzer caches warm, with a {vectors.shape[1]}-dim vector a chunk | {warm.rate(count)} |")
    print(f"| `upsert` document by document, {len(per_document_chunks):,} chunks after the first build | "
          f"{per_document.rate(len(per_document_chunks))} |")  # fmt: skip
    print(f"| analysis alone: texts to term ids (`TermTable.text_terms`, pieces seen) | {analysis.rate(count)} |")
    print(f"| first search after the build (token encoder loaded beforehand) | {first_search * 1000:.0f} ms |")
    print(f"| write the namespace snapshot (`commit`, {snapshot_mb:.0f} MB) | {snapshot.wall:.1f} s |")
    print(f"| load documents ({store_mb:.0f} MB) and snapshot in a new index, then first search | {load.wall:.1f} s "
          f"(CPU {load.cpu:.1f} s), {first_after_load * 1000:.0f} ms |")  # fmt: skip
    print(f"| the same load without the snapshot (every chunk analyzed) | {analyzing_load.wall:.1f} s "
          f"(CPU {analyzing_load.cpu:.1f} s), {analyzing_load.wall / load.wall:.1f}x the time |")  # fmt: skip
    print_searches(latencies, hybrid, vector_mb, count)
    print(f"| RSS after the reload (the reloaded index and the generated chunks) | {loaded_rss:.0f} MB |")
    print(f"| peak RSS, the builds and the reload (before the builds {rss_before:.0f} MB) | {peak_rss_mb():.0f} MB |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else CHUNKS)
