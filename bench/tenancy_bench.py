"""Many namespaces on one node: an index per namespace against the shared tenancy (index/opensearch/tenancy.py).

    .venv/bin/python -m bench.tenancy_bench --url http://127.0.0.1:9201 [--namespaces 2000] [--searches 300] \
        [--gc-command "jcmd PID GC.run"]

Run it against a node of its own (docs/evaluation/tenancy.md starts one on port 9201): it creates thousands of
indices or aliases. Each layout gets `--namespaces` namespaces of `--docs` small documents (two chunks each, words
from a Zipf-like vocabulary), published one namespace per `write`, as the publish function does. Measured per
layout: shards on the node, heap used (`_nodes/stats`, the least of a few samples, near the live heap), the p50 of
a namespace's first publish (which creates its index or alias; `--workers` publish at once while loading) and of a
republish (one at a time), and the search p50 over a sample
of the namespaces through search/service.py, each search interleaved with one on the baseline, a node-local index
holding one namespace of the same shape, so both see the same load. A layout that the node refuses (the shard limit
of an index per namespace) is loaded as far as it goes and the refusal reported.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from docshelf.errors import IndexBackendError
from docshelf.index.base import DocumentChunks
from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.opensearch.client import opensearch_client
from docshelf.index.opensearch.tenancy import Tenancy
from docshelf.model import Chunk
from docshelf.search.request import SearchRequest
from docshelf.search.service import search

VOCABULARY = [f"w{i}" for i in range(3000)]
WEIGHTS = [1 / (rank + 1) for rank in range(len(VOCABULARY))]


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choices(VOCABULARY, WEIGHTS, k=words))


def _documents(namespace: str, docs: int, rng: random.Random, revision: str = "r1") -> list[DocumentChunks]:
    out = []
    for d in range(docs):
        chunks = [
            Chunk(
                chunk_id=f"d{d}-c{c}",
                document_id=f"d{d}",
                namespace=namespace,
                type="text",
                text=_text(rng, 60),
                section_path=("s",),
                pages=(1,),
                token_count=60,
                ordinal=c,
                source_file_name=f"d{d}.txt",
                revision=revision,
            )
            for c in range(2)
        ]
        out.append(DocumentChunks(f"d{d}", revision, chunks))
    return out


def _p50_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2) if samples else float("nan")


def _timed(call: Any, *args: Any) -> float:
    start = time.perf_counter()
    call(*args)
    return time.perf_counter() - start


def full_gc(command: str) -> None:
    """Run the node's JVM's full collection (`--gc-command`, e.g. jcmd PID GC.run), so heap used is the live heap."""
    if command:
        subprocess.run(shlex.split(command), check=True, capture_output=True)
        time.sleep(1)


def node_state(client: Any, gc_command: str = "", samples: int = 3) -> dict[str, Any]:
    """Shards, the least heap used of a few samples a second apart (after a full collection when the bench can
    run one), and the segments' count."""
    full_gc(gc_command)
    heaps = []
    stats: dict[str, Any] = {}
    for _ in range(samples):
        stats = next(iter(client.nodes.stats(metric="jvm,indices")["nodes"].values()))
        heaps.append(stats["jvm"]["mem"]["heap_used_in_bytes"])
        time.sleep(1)
    health = client.cluster.health()
    return {
        "shards": health["active_shards"],
        "indices": len(client.indices.get(index="*", expand_wildcards="open")),
        "heap_used_mb": round(min(heaps) / 2**20, 1),
        "heap_max_mb": round(stats["jvm"]["mem"]["heap_max_in_bytes"] / 2**20, 1),
        "segments": stats["indices"]["segments"]["count"],
    }


def load(index: OpenSearchIndex, namespaces: list[str], docs: int, rng: random.Random, workers: int) -> dict[str, Any]:
    """Publish every namespace, `workers` at a time (as concurrent publish functions do); stop at the first
    refusal (reported)."""
    first: list[float] = []
    refusals: list[str] = []
    loaded: list[str] = []
    batches = {namespace: _documents(namespace, docs, rng) for namespace in namespaces}

    def publish(namespace: str) -> None:
        if refusals:
            return
        try:
            first.append(_timed(index.write, namespace, batches[namespace]))
        except IndexBackendError as error:
            refusals.append(f"after {len(loaded)} namespaces: {error}")
            return
        loaded.append(namespace)
        if len(loaded) % 250 == 0:
            print(f"  {index.index}: {len(loaded)} namespaces", file=sys.stderr, flush=True)

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(publish, namespaces))
    index.commit()
    sample = loaded[:: max(1, len(loaded) // 200)]
    again = [_timed(index.write, ns, _documents(ns, 1, rng, "r2")) for ns in sample]
    index.commit()
    return {"loaded": loaded, "first_publish_p50_ms": _p50_ms(first), "republish_p50_ms": _p50_ms(again),
            "refusal": refusals[0] if refusals else ""}  # fmt: skip


def searches(
    index: OpenSearchIndex, baseline: OpenSearchIndex, namespaces: list[str], count: int, rng: random.Random
) -> dict[str, float]:
    """Search p50 on the layout and on the baseline, interleaved query by query."""
    layout_times: list[float] = []
    baseline_times: list[float] = []
    for number in range(count):
        query = " ".join(rng.choices(VOCABULARY[:400], k=3))
        namespace = rng.choice(namespaces)
        asked = SearchRequest(namespace=namespace, query=query)
        base = SearchRequest(namespace="base", query=query)
        if number % 2:
            layout_times.append(_timed(search, index, asked))
            baseline_times.append(_timed(search, baseline, base))
        else:
            baseline_times.append(_timed(search, baseline, base))
            layout_times.append(_timed(search, index, asked))
    layout, alone = _p50_ms(layout_times), _p50_ms(baseline_times)
    return {"search_p50_ms": layout, "baseline_search_p50_ms": alone, "search_ratio": round(layout / alone, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:9201")
    parser.add_argument("--namespaces", type=int, default=2000)
    parser.add_argument("--docs", type=int, default=3, help="documents per namespace (two chunks each)")
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--workers", type=int, default=8, help="namespaces published at once while loading")
    parser.add_argument("--shared-indices", type=int, default=4)
    parser.add_argument("--layouts", default="index-per-namespace,shared")
    parser.add_argument("--json", type=Path, help="write the results here too")
    parser.add_argument("--gc-command", default="", help="runs the node's full GC before heap is read")
    args = parser.parse_args()
    client = opensearch_client(args.url, timeout=120)
    rng = random.Random(7)
    run = uuid.uuid4().hex[:6]
    baseline = OpenSearchIndex(client, index=f"tenancybench-{run}-base")
    baseline.write("base", _documents("base", args.docs, rng))
    baseline.commit()
    results: dict[str, Any] = {"idle": node_state(client, args.gc_command), "layouts": {}}
    print(json.dumps({"idle (baseline index only)": results["idle"]}), flush=True)
    namespaces = [f"tenant-{i:05d}" for i in range(args.namespaces)]
    try:
        for layout in args.layouts.split(","):
            tenancy = Tenancy(layout, shared_indices=args.shared_indices, large_chunks=0)
            index = OpenSearchIndex(client, index=f"tenancybench-{run}-{layout[:6]}", tenancy=tenancy)
            try:
                loaded = load(index, namespaces, args.docs, rng, args.workers)
                row = {"namespaces": len(loaded["loaded"]), **node_state(client, args.gc_command),
                       **{k: v for k, v in loaded.items() if k != "loaded"}}  # fmt: skip
                if loaded["loaded"]:
                    row.update(searches(index, baseline, loaded["loaded"], args.searches, rng))
                results["layouts"][layout] = row
                print(json.dumps({layout: row}), flush=True)
            finally:
                index.drop_index()
    finally:
        baseline.drop_index()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
