"""Publish throughput and search latency: the OpenSearch backend next to the embedded index.

    .venv/bin/python bench/opensearch_bench.py [--chunks 20000] [--queries 300] [--url http://127.0.0.1:9200]

Both backends get the same generated chunks (documents of 20 chunks, ~80 words each from a Zipf-like
vocabulary) and the same queries, run through search/service.py. OpenSearch is measured twice for
publishing: one `upsert` per document (what the pipeline does) and `upsert_many` over 50 documents per
call. Without a node at the URL, the OpenSearch rows are skipped with a message.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from docshelf.index.base import SearchIndex
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.opensearch import DocumentChunks, OpenSearchIndex
from docshelf.index.opensearch_client import opensearch_client
from docshelf.model import Chunk
from docshelf.search.service import SearchRequest, search
from docshelf.store import LocalStore

CHUNKS_PER_DOCUMENT = 20
DOCUMENTS_PER_BATCH = 50
NAMESPACE = "bench"


@dataclass(frozen=True, slots=True)
class Row:
    backend: str
    publish: str
    chunks_per_second: float
    p50_ms: float | None = None
    p95_ms: float | None = None


def generate_documents(total_chunks: int, seed: int = 7) -> list[DocumentChunks]:
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(5000)] + [f"TX-{i}" for i in range(200)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    documents = []
    for number in range(max(1, total_chunks // CHUNKS_PER_DOCUMENT)):
        doc_id = f"doc{number:06d}"
        chunks = [
            Chunk(
                chunk_id=f"{doc_id}-c{i}",
                document_id=doc_id,
                namespace=NAMESPACE,
                type="text",
                text=" ".join(rng.choices(vocabulary, weights, k=80)),
                section_path=(f"Section {i % 5}",),
                pages=(i + 1,),
                token_count=120,
                ordinal=i,
                source_file_name=f"file{number:06d}.txt",
                revision="r1",
            )
            for i in range(CHUNKS_PER_DOCUMENT)
        ]
        documents.append(DocumentChunks(doc_id, "r1", chunks))
    return documents


def generate_queries(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(f"w{rng.randrange(2000)}" for _ in range(rng.randint(2, 4))) for _ in range(count)]


def publish_each(index: SearchIndex, documents: Sequence[DocumentChunks]) -> Callable[[], None]:
    def publish() -> None:
        for document in documents:
            index.upsert(NAMESPACE, document.document_id, document.revision, document.chunks)

    return publish


def timed(action: Callable[[], None]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def latencies_ms(index: SearchIndex, queries: Sequence[str]) -> tuple[float, float]:
    for query in queries[:10]:  # warm caches and connections
        search(index, SearchRequest(NAMESPACE, query))
    samples = []
    for query in queries:
        started = time.perf_counter()
        search(index, SearchRequest(NAMESPACE, query))
        samples.append((time.perf_counter() - started) * 1000)
    cuts = statistics.quantiles(samples, n=100)
    return cuts[49], cuts[94]


def bench_embedded(documents: list[DocumentChunks], queries: list[str], total: int) -> Row:
    with tempfile.TemporaryDirectory() as folder:
        index = EmbeddedIndex(LocalStore(folder))
        seconds = timed(publish_each(index, documents))
        p50, p95 = latencies_ms(index, queries)
    return Row("embedded", "upsert per document", total / seconds, p50, p95)


def bench_opensearch(client: Any, documents: list[DocumentChunks], queries: list[str], total: int) -> list[Row]:
    rows = []
    per_document = OpenSearchIndex(client, index=f"docshelfbench-{uuid.uuid4().hex[:8]}")
    per_document.ensure_index()
    try:
        seconds = timed(publish_each(per_document, documents))
        rows.append(Row("opensearch", "upsert per document", total / seconds))
    finally:
        per_document.drop_index()

    batched = OpenSearchIndex(client, index=f"docshelfbench-{uuid.uuid4().hex[:8]}")
    batched.ensure_index()
    try:
        groups = [documents[i : i + DOCUMENTS_PER_BATCH] for i in range(0, len(documents), DOCUMENTS_PER_BATCH)]

        def publish_all() -> None:
            for group in groups:
                failures = batched.upsert_many(NAMESPACE, group)
                if failures:
                    raise RuntimeError(f"publish failed: {failures}")

        seconds = timed(publish_all)
        batched.refresh()
        client.indices.forcemerge(index=batched.index, max_num_segments=1)
        p50, p95 = latencies_ms(batched, queries)
        rows.append(Row("opensearch", f"upsert_many, {DOCUMENTS_PER_BATCH} docs/call", total / seconds, p50, p95))
    finally:
        batched.drop_index()
    return rows


def print_table(rows: list[Row], chunks: int, queries: int) -> None:
    print(f"\n{chunks} chunks, {queries} queries (top_k 8, three channels, RRF)\n")
    header = f"{'backend':<11} {'publish':<28} {'chunks/s':>9} {'search p50 ms':>14} {'search p95 ms':>14}"
    print(header)
    print("-" * len(header))
    for row in rows:
        p50 = f"{row.p50_ms:.2f}" if row.p50_ms is not None else "-"
        p95 = f"{row.p95_ms:.2f}" if row.p95_ms is not None else "-"
        print(f"{row.backend:<11} {row.publish:<28} {row.chunks_per_second:>9.0f} {p50:>14} {p95:>14}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--url", default=os.environ.get("OPENSEARCH_URL", "http://127.0.0.1:9200"))
    args = parser.parse_args(argv)

    documents = generate_documents(args.chunks)
    total = sum(len(d.chunks) for d in documents)
    queries = generate_queries(args.queries)
    rows = [bench_embedded(documents, queries, total)]
    client = opensearch_client(args.url)
    try:
        client.info()
    except Exception as error:  # any failure to reach the node means there is nothing to measure
        print(f"opensearch: skipped, no node answers at {args.url} ({error.__class__.__name__})", file=sys.stderr)
    else:
        rows += bench_opensearch(client, documents, queries, total)
    print_table(rows, total, len(queries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
