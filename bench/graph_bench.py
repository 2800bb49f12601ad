#!/usr/bin/env python3
"""What the document graph costs (issue #39): `docshelf ingest` of ../shared/corpus into a fresh store (which
writes every graph.json), then every document's graph built again in this process from the store's chunks and the
index's document frequencies, as the publish stage builds it (`pipeline/graph_writing.py`). Reports the graphs'
time against the ingest's, both measured in this run (median of `--repeat` graph passes), and their size.

    python -m bench.graph_bench [--corpus DIR] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from docshelf.graph.build import content_terms, document_graph  # noqa: E402
from docshelf.index.plan import SearchFilters  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402
from docshelf.pipeline.graph_writing import write_document_graph  # noqa: E402
from docshelf.pipeline.outcomes import DocumentRef  # noqa: E402
from docshelf.serde import chunks_from_dict  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
NAMESPACE = "corpus"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"skipped: {args.corpus} is absent")
        return 0
    with tempfile.TemporaryDirectory(prefix="graph-bench-") as work:
        store = Path(work) / "store"
        cpu, started = children_cpu(), time.perf_counter()
        subprocess.run(
            [str(REPO / ".venv/bin/docshelf"), "ingest", str(args.corpus), "--store", str(store), "--namespace",
             NAMESPACE, "--quiet"],
            check=False, capture_output=True,
        )  # fmt: skip
        ingest_s, ingest_cpu = time.perf_counter() - started, children_cpu() - cpu
        services = LocalServices.open(store)
        documents = []
        for path in sorted((store / "docs" / NAMESPACE).glob("*/chunks.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            record = services.registry.get(NAMESPACE, data["document_id"])
            if record is not None and record.status in ("ok", "partial"):
                ref = DocumentRef(NAMESPACE, record.document_id, record.source_key, record.revision)
                documents.append((ref, chunks_from_dict(data)))
        services.index.count(NAMESPACE, SearchFilters())  # the namespace loaded before the graphs are timed
        passes, cpu_passes = [], []
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            for ref, chunks in documents:
                write_document_graph(services.store, services.index, ref, chunks)
            passes.append(time.perf_counter() - wall)
            cpu_passes.append(time.process_time() - cpu)
        nodes = edges = degree_max = 0
        for ref, chunks in documents:
            frequencies = content_terms(chunks)
            terms = list(dict.fromkeys(t for counts in frequencies for t in counts))
            total, holding = services.index.document_frequencies(NAMESPACE, terms)
            graph = document_graph(
                ref.document_id, ref.revision, chunks, frequencies, namespace_chunks=total, namespace_holding=holding
            )
            degree = Counter(node for edge in graph["edges"] for node in (edge["source"], edge["target"]))
            nodes, edges = nodes + len(graph["nodes"]), edges + len(graph["edges"])
            degree_max = max(degree_max, max(degree.values(), default=0))
        graph_s, graph_cpu = statistics.median(passes), statistics.median(cpu_passes)
        chunks_total = sum(len(chunks) for _, chunks in documents)
        print(f"corpus: {len(documents)} documents with chunks, {chunks_total} chunks")
        print(f"ingest (docshelf ingest, graphs included): {ingest_s:.2f} s wall, {ingest_cpu:.2f} s CPU")
        wall, cpu = 100 * graph_s / ingest_s, 100 * graph_cpu / ingest_cpu
        print(f"graphs of every document (median of {args.repeat}): {graph_s:.3f} s wall, {graph_cpu:.3f} s CPU"
              f" = {wall:.1f}% of the ingest's wall time, {cpu:.1f}% of its CPU")  # fmt: skip
        print(f"graphs: {nodes} nodes, {edges} edges, at most {degree_max} edges a node")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
