#!/usr/bin/env python3
"""The semantic channel's costs: how int8 and float16 vectors keep float32's top 10 (recall@10), their memory per
100k chunks, the exact top-k time at 100k x 384, and the local model's query embedding time.

Vectors are synthetic unit vectors around 50 centres (sentence embeddings are clustered: many near neighbours with
close scores, the hard case for quantisation), and, when the ranking study has cached them
(bench/ranking_study.py --semantic, in /tmp/docshelf_hybrid_study), all-MiniLM-L6-v2's vectors of the study sets'
chunks with their queries embedded.

    python -m bench.hybrid_bench [CHUNKS] [--opensearch URL [--opensearch-chunks N] [--opensearch-exact]]

`--opensearch URL` also times searches of N generated chunks (bench/index_bench.py's) with vectors on that node,
without and with the semantic channel (an index of its own, dropped after).
"""

from __future__ import annotations

import io
import statistics
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

from docshelf.embeddings.base import EmbeddingModel  # noqa: E402
from docshelf.index.vectors import dequantized, quantized, scores  # noqa: E402

DIMENSION = 384
STUDY_CACHE = Path("/tmp/docshelf_hybrid_study")
MODEL = EmbeddingModel("bench", "clustered", "1", DIMENSION, normalized=True)


def clustered_vectors(count: int, seed: int = 3, dimension: int = DIMENSION) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((50, dimension)).astype(np.float32)
    matrix = centres[rng.integers(0, 50, count)] + 0.6 * rng.standard_normal((count, dimension)).astype(np.float32)
    unit: np.ndarray = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)
    return unit


class PrecomputedEmbedder:
    """Query vectors made beforehand (a chunk's vector with noise), so search latency excludes the model."""

    def __init__(self, vectors: np.ndarray, seed: int = 5) -> None:
        self.model = MODEL
        rng = np.random.default_rng(seed)
        picked = vectors[rng.integers(0, len(vectors), 256)] + 0.3 * rng.standard_normal((256, vectors.shape[1]))
        self._queries = (picked / np.linalg.norm(picked, axis=1, keepdims=True)).astype(np.float32)
        self._next = 0

    def embed_query(self, text: str) -> np.ndarray:
        self._next += 1
        query: np.ndarray = self._queries[self._next % len(self._queries)]
        return query


def recall_at_10(matrix: np.ndarray, queries: np.ndarray) -> tuple[float, float]:
    """(int8, float16) mean recall@10 against float32's exact top 10."""
    codes, scales = quantized(matrix)
    half = matrix.astype(np.float16)
    int8, float16 = [], []
    for query in queries:
        exact = set(np.argpartition(-(matrix @ query), 10)[:10].tolist())
        int8.append(len(exact & set(np.argpartition(-scores(codes, scales, query), 10)[:10].tolist())) / 10)
        approx = half.astype(np.float32) @ query
        float16.append(len(exact & set(np.argpartition(-approx, 10)[:10].tolist())) / 10)
    return float(np.mean(int8)), float(np.mean(float16))


def study_vectors() -> tuple[np.ndarray, np.ndarray] | None:
    """(MiniLM chunk vectors, MiniLM query vectors) of the English study sets, if cached and the model is here."""
    import json

    parts = []
    for name in ("med", "cacm", "npl"):
        for path in sorted((STUDY_CACHE / name / "vector-cache").glob("**/local-all-minilm-l6-v2-q-*/*.npz")):
            with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as stored:
                if stored["vectors"].ndim == 2 and len(stored["vectors"]):
                    parts.append(stored["vectors"])
    if not parts:
        return None
    try:
        from docshelf.embeddings.local import LocalProvider

        provider = LocalProvider.load("all-minilm-l6-v2-q")
    except Exception:  # the model is not installed
        return None
    texts = []
    for name in ("med", "cacm", "npl"):
        lines = (REPO.parent / "shared" / "ireval" / name / "queries.jsonl").read_text(encoding="utf-8").splitlines()
        texts += [json.loads(line)["query"] for line in lines]
    queries = np.stack([provider.embed_query(text) for text in texts[:150]])
    return np.concatenate(parts).astype(np.float32), queries


def query_embedding_ms() -> str:
    try:
        from docshelf.embeddings.local import LocalProvider

        provider = LocalProvider.load("all-minilm-l6-v2-q")
    except Exception as error:  # the model is not installed
        return f"not measured ({error})"
    provider.embed_query("warm up the session")
    times = []
    for number in range(50):
        started = time.perf_counter()
        provider.embed_query(f"how often should the pump seal number {number} be replaced")
        times.append((time.perf_counter() - started) * 1000)
    return f"{statistics.median(times):.1f} ms median ({provider.model.model_id}, 10-word queries)"


def top_k_ms(matrix: np.ndarray, queries: np.ndarray) -> tuple[float, float]:
    """(int8 blocked product, float32 matrix product) median ms over the whole matrix."""
    codes, scales = quantized(matrix)
    int8, float32 = [], []
    for query in queries[:50]:
        started = time.perf_counter()
        scores(codes, scales, query)
        int8.append(time.perf_counter() - started)
        started = time.perf_counter()
        _ = matrix @ query
        float32.append(time.perf_counter() - started)
    return statistics.median(int8) * 1000, statistics.median(float32) * 1000


def opensearch_latencies(url: str, count: int, exact: bool) -> str:
    """p50 / p95 of searches on OpenSearch without and with the semantic channel, alternated; `exact`: the
    namespace index is made without `index.knn`, so the channel is the exact script score, not HNSW."""
    import random
    import uuid

    from bench.index_bench import documents_of, make_chunks, percentiles
    from docshelf.index.opensearch import OpenSearchIndex
    from docshelf.index.opensearch.client import opensearch_client
    from docshelf.index.opensearch.setup import namespace_index_body, without_knn
    from docshelf.search.request import SearchRequest
    from docshelf.search.service import search

    chunks, vectors = make_chunks(count), clustered_vectors(count)
    index = OpenSearchIndex(opensearch_client(url), index=f"bench-hybrid-{uuid.uuid4().hex[:8]}")
    try:
        documents = documents_of(chunks, vectors)
        if exact:
            index.ensure_index()
            body = without_knn(namespace_index_body(index.alias("bench")))
            index.client.indices.create(index=f"{index.alias('bench')}.v1", body=body)
        for start in range(0, len(documents), 20):
            index.write("bench", documents[start : start + 20])
        index.commit()
        rng = random.Random(7)
        queries = [" ".join(rng.sample(chunks[rng.randrange(count)].text.split(), k=rng.randint(2, 6)))
                   for _ in range(100)]  # fmt: skip
        embedder = PrecomputedEmbedder(vectors)
        lexical: list[float] = []
        hybrid: list[float] = []
        for query in queries:
            for embedding, found in ((None, lexical), (embedder, hybrid)):
                started = time.perf_counter()
                search(index, SearchRequest("bench", query, top_k=10), embedder=embedding)
                found.append((time.perf_counter() - started) * 1000)
    finally:
        index.drop_index()
    return f"lexical {percentiles(lexical)}, with the semantic channel {percentiles(hybrid)}"


def main(count: int = 100_000) -> None:
    matrix = clustered_vectors(count)
    queries = clustered_vectors(200, seed=4)
    int8, float16 = recall_at_10(matrix, queries)
    codes, scales = quantized(matrix)
    assert np.abs(dequantized(codes, scales) - matrix).max() < 0.01
    per_100k = 100_000 / count / 1e6
    print(f"| vectors, {count:,} x {DIMENSION} | int8 + scale (chosen) | float16 | float32 |")
    print("|---|---|---|---|")
    print(f"| memory per 100k chunks | {(codes.nbytes + scales.nbytes) * per_100k:.1f} MB | "
          f"{matrix.nbytes / 2 * per_100k:.1f} MB | {matrix.nbytes * per_100k:.1f} MB |")  # fmt: skip
    print(f"| recall@10 against float32, clustered synthetic vectors (200 queries) | {int8:.3f} | {float16:.3f} | 1 |")
    real = study_vectors()
    if real is not None:
        real_int8, real_float16 = recall_at_10(*real)
        print(f"| recall@10, all-MiniLM-L6-v2 vectors of med+cacm+npl ({len(real[0]):,} chunks, {len(real[1])} "
              f"queries) | {real_int8:.3f} | {real_float16:.3f} | 1 |")  # fmt: skip
    int8_ms, float32_ms = top_k_ms(matrix, queries)
    print(f"| exact scores of every chunk (median of 50 queries) | {int8_ms:.1f} ms | "
          f"(no fast float16 product in numpy) | {float32_ms:.1f} ms |")  # fmt: skip
    listed_ms, exact_ms, recall = inverted_lists(codes, scales, queries)
    print(f"| embedded semantic channel, {count:,} rows (median of {len(queries)} queries) | inverted lists "
          f"{listed_ms:.1f} ms, recall@10 {recall:.3f} against exact | exact {exact_ms:.1f} ms | |")  # fmt: skip
    print(f"| query embedding, local provider | {query_embedding_ms()} | | |")


def inverted_lists(codes: np.ndarray, scales: np.ndarray, queries: np.ndarray) -> tuple[float, float, float]:
    """The embedded engine's ranking (VectorRows: inverted lists from 20k rows) against exact top_rows: median ms
    of each and recall@10 (the lists are trained before the clock starts)."""
    from docshelf.index.embedded.vector_rows import VectorRows
    from docshelf.index.vectors import StoredVectors, VectorModel, top_rows

    model = VectorModel.of(MODEL)
    rows = VectorRows(model)
    rows.put(0, StoredVectors(model, codes, scales))
    every = np.ones(len(codes), dtype=np.bool_)
    rows.rank(queries[0].tolist(), every, 10)
    listed, exact, recalls = [], [], []
    for query in queries:
        started = time.perf_counter()
        found = rows.rank(query.tolist(), every, 10)
        listed.append(time.perf_counter() - started)
        started = time.perf_counter()
        best = top_rows(codes, scales, query.tolist(), every, 10)
        exact.append(time.perf_counter() - started)
        recalls.append(len({r for r, _ in found} & {r for r, _ in best}) / 10)
    return statistics.median(listed) * 1000, statistics.median(exact) * 1000, float(np.mean(recalls))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("chunks", type=int, nargs="?", default=100_000)
    parser.add_argument("--opensearch", metavar="URL")
    parser.add_argument("--opensearch-chunks", type=int, default=10_000)
    parser.add_argument("--opensearch-exact", action="store_true", help="an index without k-NN (exact scores)")
    args = parser.parse_args()
    if args.opensearch:
        kind = "exact script score" if args.opensearch_exact else "HNSW where the node has k-NN"
        print(f"| OpenSearch, {args.opensearch_chunks:,} x {DIMENSION} ({kind}), search p50 / p95 (100 queries) | "
              f"{opensearch_latencies(args.opensearch, args.opensearch_chunks, args.opensearch_exact)} |")  # fmt: skip
    else:
        main(args.chunks)
