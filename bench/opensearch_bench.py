"""Publish throughput and search latency: the OpenSearch backend next to the embedded index.

    .venv/bin/python -m bench.opensearch_bench [--chunks 20000] [--queries 300] [--url URL] [--no-per-document]

Both backends get the same generated chunks (documents of 20 chunks, ~80 words each from a Zipf-like
vocabulary) and the same queries, run through search/service.py. OpenSearch is measured twice for
publishing: one `upsert` per document and `write` over 50 documents per call (what the pipeline does). Search
on OpenSearch runs in two passes (two `_msearch` requests); the row "one call at a time" is the same index
searched through one-channel rankings (count, each channel, feedback fetch, expanded query, hydration; no idf
or common-term check), interleaved query by query with the two-pass searches so both see the same load.
Without a node at the URL, the OpenSearch rows are skipped with a message.
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
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from docshelf.index.base import DocumentChunks, SearchBackend  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.index.opensearch import OpenSearchIndex  # noqa: E402
from docshelf.index.opensearch.client import opensearch_client  # noqa: E402
from docshelf.model import Chunk  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402
from tests.support.backends import OneCallAtATime  # noqa: E402

CHUNKS_PER_DOCUMENT = 20
WARM_UP_QUERIES = 10
DOCUMENTS_PER_BATCH = 50
NAMESPACE = "bench"


@dataclass(frozen=True, slots=True)
class Row:
    backend: str
    publish: str
    chunks_per_second: float
    p50_ms: float | None = None
    p95_ms: float | None = None
    requests_per_search: float | None = None


class RequestCounter:
    """Counts the HTTP requests a client sends, by wrapping its transport's `perform_request`."""

    def __init__(self, client: Any) -> None:
        self.requests = 0
        send = client.transport.perform_request

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.requests += 1
            return send(*args, **kwargs)

        client.transport.perform_request = counted


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


def publish_each(index: SearchBackend, documents: Sequence[DocumentChunks]) -> Callable[[], None]:
    def publish() -> None:
        for document in documents:
            index.upsert(NAMESPACE, document.document_id, document.revision, document.chunks)

    return publish


def timed(action: Callable[[], None]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def latencies_ms(index: SearchBackend, queries: Sequence[str]) -> tuple[float, float]:
    (samples,) = interleaved_latencies_ms([index], queries)
    return quantiles(samples)


def interleaved_latencies_ms(indexes: Sequence[SearchBackend], queries: Sequence[str]) -> list[list[float]]:
    """Each index's search times for the queries; every query runs on each index in turn, in an order that
    alternates, so a change in the machine's load weighs on all of them alike."""
    for query in queries[:WARM_UP_QUERIES]:  # warm caches and connections
        for index in indexes:
            search(index, SearchRequest(NAMESPACE, query))
    samples: list[list[float]] = [[] for _ in indexes]
    for number, query in enumerate(queries):
        order = list(range(len(indexes)))
        for position in order if number % 2 else reversed(order):
            started = time.perf_counter()
            search(indexes[position], SearchRequest(NAMESPACE, query))
            samples[position].append((time.perf_counter() - started) * 1000)
    return samples


def quantiles(samples: Sequence[float]) -> tuple[float, float]:
    """(p50, p95)"""
    cuts = statistics.quantiles(samples, n=100)
    return cuts[49], cuts[94]


def requests_per_search(counter: RequestCounter, index: SearchBackend, queries: Sequence[str]) -> float:
    sent = counter.requests
    for query in queries:
        search(index, SearchRequest(NAMESPACE, query))
    return (counter.requests - sent) / len(queries)


def bench_embedded(documents: list[DocumentChunks], queries: list[str], total: int) -> Row:
    with tempfile.TemporaryDirectory() as folder:
        index = EmbeddedIndex(LocalStore(folder))
        seconds = timed(publish_each(index, documents))
        p50, p95 = latencies_ms(index, queries)
    return Row("embedded", "upsert per document", total / seconds, p50, p95)


def bench_opensearch(
    client: Any,
    counter: RequestCounter,
    documents: list[DocumentChunks],
    queries: list[str],
    total: int,
    *,
    per_document_publish: bool = True,
) -> list[Row]:
    rows = []
    if per_document_publish:
        per_document = OpenSearchIndex(client, index=f"docshelfbench-{uuid.uuid4().hex[:8]}")
        try:
            seconds = timed(publish_each(per_document, documents))
            rows.append(Row("opensearch", "upsert per document", total / seconds))
        finally:
            per_document.drop_index()

    batched = OpenSearchIndex(client, index=f"docshelfbench-{uuid.uuid4().hex[:8]}")
    try:
        groups = [documents[i : i + DOCUMENTS_PER_BATCH] for i in range(0, len(documents), DOCUMENTS_PER_BATCH)]

        def publish_all() -> None:
            for group in groups:
                failures = batched.write(NAMESPACE, group)
                if failures:
                    raise RuntimeError(f"publish failed: {failures}")

        seconds = timed(publish_all)
        batched.commit()
        client.indices.forcemerge(index=batched.alias(NAMESPACE), max_num_segments=1)
        sequential = OneCallAtATime(batched, statistics=False)
        two_passes, one_at_a_time = interleaved_latencies_ms([batched, sequential], queries)
        label = f"write, {DOCUMENTS_PER_BATCH} docs/call"
        requests = requests_per_search(counter, batched, queries)
        rows.append(Row("opensearch", label, total / seconds, *quantiles(two_passes), requests))
        requests = requests_per_search(counter, sequential, queries)
        rows.append(Row("opensearch", "same, one call at a time", total / seconds, *quantiles(one_at_a_time), requests))
    finally:
        batched.drop_index()
    return rows


def print_table(rows: list[Row], chunks: int, queries: int) -> None:
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\n{chunks} chunks, {queries} queries (top_k 8, channels and query expansion fused by RRF), load {load}\n")
    header = f"{'backend':<11} {'publish':<28} {'chunks/s':>9} {'search p50 ms':>14} {'search p95 ms':>14}"
    header += f" {'requests/search':>16}"
    print(header)
    print("-" * len(header))
    for row in rows:
        p50 = f"{row.p50_ms:.2f}" if row.p50_ms is not None else "-"
        p95 = f"{row.p95_ms:.2f}" if row.p95_ms is not None else "-"
        requests = f"{row.requests_per_search:.2f}" if row.requests_per_search is not None else "-"
        print(f"{row.backend:<11} {row.publish:<28} {row.chunks_per_second:>9.0f} {p50:>14} {p95:>14} {requests:>16}")
    searched = {row.publish: row for row in rows if row.backend == "opensearch" and row.p50_ms and row.p95_ms}
    if len(searched) == 2:
        (two_passes, one_at_a_time) = searched.values()
        assert two_passes.p50_ms and two_passes.p95_ms and one_at_a_time.p50_ms and one_at_a_time.p95_ms
        print(
            f"\nopensearch two passes / one call at a time: p50 {two_passes.p50_ms / one_at_a_time.p50_ms:.2f}, "
            f"p95 {two_passes.p95_ms / one_at_a_time.p95_ms:.2f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--url", default=os.environ.get("OPENSEARCH_URL", "http://127.0.0.1:9200"))
    parser.add_argument(
        "--no-per-document", action="store_true", help="skip the slow one-upsert-per-document publish run"
    )
    args = parser.parse_args(argv)

    documents = generate_documents(args.chunks)
    total = sum(len(d.chunks) for d in documents)
    queries = generate_queries(args.queries)
    rows = [bench_embedded(documents, queries, total)]
    client = opensearch_client(args.url)
    counter = RequestCounter(client)
    try:
        client.info()
    except Exception as error:  # any failure to reach the node means there is nothing to measure
        print(f"opensearch: skipped, no node answers at {args.url} ({error.__class__.__name__})", file=sys.stderr)
    else:
        rows += bench_opensearch(
            client, counter, documents, queries, total, per_document_publish=not args.no_per_document
        )
    print_table(rows, total, len(queries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
