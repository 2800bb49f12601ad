#!/usr/bin/env python3
"""What the document graph costs (issues #39, #36): `docshelf ingest` of ../shared/corpus into a fresh store (which
writes no graph: it is built when asked for), then every document's graph built as GET /documents/{id}/graph builds
it (`graph/source.py`: chunks.json read, analyzed, weighed by the index's document frequencies). Reports the
graphs' time against the ingest's, both measured in this run (median of `--repeat` passes), the slowest document's
build, and the graphs' size.

    python -m bench.graph_bench [--corpus DIR] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from docshelf.graph.source import BuiltGraphSource  # noqa: E402
from docshelf.index.plan import SearchFilters  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402

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
        records = [r for r in services.registry.list(NAMESPACE) if r.status in ("ok", "partial")]
        source = BuiltGraphSource(services.store, lambda _: services.index)
        services.index.count(NAMESPACE, SearchFilters())  # the namespace loaded before the graphs are timed
        passes, cpu_passes, slowest = [], [], (0.0, "")
        graphs: list[dict[str, object]] = []
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            graphs = []
            for record in records:
                one = time.perf_counter()
                graph = source.load(NAMESPACE, record.document_id, record.revision)
                slowest = max(slowest, (time.perf_counter() - one, record.source_key))
                graphs.append(dict(graph or {}))
            passes.append(time.perf_counter() - wall)
            cpu_passes.append(time.process_time() - cpu)
        nodes = edges = degree_max = 0
        for graph in graphs:
            if not graph:
                continue
            listed = graph["edges"]
            degree = Counter(node for edge in listed for node in (edge["source"], edge["target"]))  # type: ignore[attr-defined]
            nodes, edges = nodes + len(graph["nodes"]), edges + len(listed)  # type: ignore[arg-type]
            degree_max = max(degree_max, max(degree.values(), default=0))
        graph_s, graph_cpu = statistics.median(passes), statistics.median(cpu_passes)
        print(f"corpus: {len(records)} documents with chunks, {sum(r.chunk_count for r in records)} chunks")
        print(f"ingest (docshelf ingest, no graph written): {ingest_s:.2f} s wall, {ingest_cpu:.2f} s CPU")
        wall, cpu = 100 * graph_s / ingest_s, 100 * graph_cpu / ingest_cpu
        print(f"graphs of every document built on request (median of {args.repeat}): {graph_s:.3f} s wall, "
              f"{graph_cpu:.3f} s CPU = {wall:.1f}% of the ingest's wall time, {cpu:.1f}% of its CPU; slowest "
              f"{slowest[0] * 1000:.0f} ms ({slowest[1]})")  # fmt: skip
        print(f"graphs: {nodes} nodes, {edges} edges, at most {degree_max} edges a node")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
