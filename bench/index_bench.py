#!/usr/bin/env python3
"""The embedded index at scale: build rate, search latency through search/service.py, memory.

Chunks are generated from a Zipf-distributed vocabulary (so common and rare terms behave as in
text); a chunk is CHUNK_WORDS words, about a 500-token chunk's analysed size in the content channel.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.model import Chunk  # noqa: E402
from docshelf.search.service import SearchRequest, search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402

CHUNKS = 20_000  # the issue 5 target is 100k: `python bench/index_bench.py 100000`
CHUNK_WORDS = 120
CHUNKS_PER_DOCUMENT = 50
VOCABULARY = 50_000


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


def build(index: EmbeddedIndex, chunks: list[Chunk]) -> float:
    """Seconds to upsert `chunks` document by document: analysis, postings, one store object per document."""
    started = time.perf_counter()
    for start in range(0, len(chunks), CHUNKS_PER_DOCUMENT):
        batch = chunks[start : start + CHUNKS_PER_DOCUMENT]
        index.upsert("bench", batch[0].document_id, "r1", batch)
    return time.perf_counter() - started


def main(count: int = CHUNKS) -> None:
    chunks = make_chunks(count)
    rng = random.Random(7)
    queries = [" ".join(rng.sample(chunks[rng.randrange(count)].text.split(), k=rng.randint(2, 6))) for _ in range(200)]
    rss_before = peak_rss_mb()
    with tempfile.TemporaryDirectory() as tmp:
        cold = build(EmbeddedIndex(LocalStore(Path(tmp) / "cold")), chunks)
    gc.collect()
    with tempfile.TemporaryDirectory() as tmp:
        index = EmbeddedIndex(LocalStore(tmp))
        warm = build(index, chunks)
        started = time.perf_counter()
        search(index, SearchRequest("bench", queries[0]))
        first_search = time.perf_counter() - started
        latencies = []
        for query in queries:
            began = time.perf_counter()
            search(index, SearchRequest("bench", query, top_k=10))
            latencies.append((time.perf_counter() - began) * 1000)
        latencies.sort()
        del index
        gc.collect()
        started = time.perf_counter()
        reopened = EmbeddedIndex(LocalStore(tmp))
        reopened.count("bench", SearchRequest("bench", "x").filters)
        load = time.perf_counter() - started
        loaded_rss = current_rss_mb()
        store_mb = sum(f.stat().st_size for f in Path(tmp).rglob("*") if f.is_file()) / 1e6
    print(f"| embedded index, {count:,} chunks of {CHUNK_WORDS} words, {CHUNKS_PER_DOCUMENT} per document | value |")
    print("|---|---|")
    print(f"| build, every word new (Snowball stemming of the vocabulary included) | {cold:.1f} s, "
          f"{count / cold:,.0f} chunks/s |")  # fmt: skip
    print(f"| build, analyser caches warm (same words, new index and store) | {warm:.1f} s, "
          f"{count / warm:,.0f} chunks/s |")  # fmt: skip
    print(f"| first search after the build (lazy segment merge) | {first_search * 1000:.0f} ms |")
    print(f"| load from the store ({store_mb:.0f} MB) | {load:.1f} s |")
    print(f"| search p50 / p95 ({len(queries)} queries, 2-6 terms, top 10) | "
          f"{statistics.median(latencies):.1f} ms / {latencies[int(len(latencies) * 0.95) - 1]:.1f} ms |")  # fmt: skip
    print(f"| RSS after the reload (the reloaded index and the generated chunks) | {loaded_rss:.0f} MB |")
    print(f"| peak RSS, two builds and the reload (before the builds {rss_before:.0f} MB) | {peak_rss_mb():.0f} MB |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else CHUNKS)
