#!/usr/bin/env python3
"""`make bench`: ingest, parse, chunk, cache and search figures, printed as one table.

Speed is reported as medians over repeated runs in this process (the machine is shared and
noisy); ratios compare runs made in the same process. Benchmarks of other parts (PDF parsing,
Lambda cold starts, OpenSearch) are run after this one when their scripts are present.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from docshelf.chunking import ChunkConfig, chunk_document  # noqa: E402
from docshelf.errors import DocumentError  # noqa: E402
from docshelf.forked import CPUS_ENV, usable_cpus  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402
from docshelf.model import Document  # noqa: E402
from docshelf.parsers import parse_bytes  # noqa: E402
from docshelf.pipeline import parse_in_workers  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
EXAMPLES = REPO / "examples" / "docs"
QUERIES = [
    "seal replacement interval",
    "torque for flange bolts",
    "vacation days for new employees",
    "price of the TX-200",
    "warranty on valves",
    "release notes version 2.3.1",
    "新员工年假",
    "table of contents",
    "pressure rating",
    "how to return a product",
]

Row = tuple[str, str, str]


def files_of(folder: Path) -> list[Path]:
    skipped = {"MANIFEST.tsv", "README.md"}
    return sorted(
        p for p in folder.rglob("*") if p.is_file() and p.name not in skipped and "groundtruth" not in p.parts
    )


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def ingest_folder(folder: Path, store: Path) -> tuple[float, int, int]:
    services = LocalServices.open(store)
    files = [(path, path.relative_to(folder).as_posix()) for path in files_of(folder)]
    chunks = failed = 0
    started = time.perf_counter()
    for result in services.ingest_files(files, namespace="bench"):
        chunks += result.chunks
        failed += result.status != "ok"
    return time.perf_counter() - started, chunks, failed


def bench_ingest(folder: Path, label: str) -> list[Row]:
    size_mb = sum(p.stat().st_size for p in files_of(folder)) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        cold, chunks, failed = ingest_folder(folder, Path(tmp) / "store")
        warm = statistics.median(ingest_folder(folder, Path(tmp) / "store")[0] for _ in range(3))
        rows = [
            (f"ingest {label} cold ({len(files_of(folder))} files, {size_mb:.1f} MB)", f"{cold:.2f} s",
             f"{size_mb / cold:.2f} MB/s, {chunks} chunks, {failed} failed"),
            (f"re-ingest {label} (cache hits)", f"{warm:.2f} s", f"{warm / cold:.1%} of cold"),
        ]  # fmt: skip
        rows += bench_search(LocalServices.open(Path(tmp) / "store"), label)
    return rows


def bench_search(services: LocalServices, label: str) -> list[Row]:
    search(services.index, SearchRequest("bench", "warm up"))
    latencies = []
    for _ in range(10):
        for query in QUERIES:
            latencies.append(timed(lambda q=query: search(services.index, SearchRequest("bench", q))) * 1000)  # type: ignore[misc]
    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    total = services.index.count("bench", SearchRequest("bench", "x").filters)
    return [(f"search {label} ({total} chunks, {len(latencies)} queries)", f"p50 {statistics.median(latencies):.1f} ms",
             f"p95 {p95:.1f} ms")]  # fmt: skip


def parse_file(path: Path) -> Document | None:
    try:
        return parse_bytes(path.read_bytes(), path.name)
    except DocumentError:
        return None


def parse_corpus(files: list[Path], *, cpus: str | None) -> tuple[float, list[Document]]:
    """Parse every file with DOCSHELF_CPUS set to `cpus` (None: every usable CPU), as a folder ingest does:
    in forked workers of one CPU each, largest file first, when CPUs are spare."""
    previous = os.environ.pop(CPUS_ENV, None)
    if cpus is not None:
        os.environ[CPUS_ENV] = cpus
    try:
        started = time.perf_counter()
        parsed = parse_in_workers(parse_file, files, path=lambda path: path)
        documents = [document for document in parsed if document is not None]
        return time.perf_counter() - started, documents
    finally:
        os.environ.pop(CPUS_ENV, None)
        if previous is not None:
            os.environ[CPUS_ENV] = previous


def bench_parse_and_chunk(folder: Path) -> list[Row]:
    files = files_of(folder)
    size_mb = sum(p.stat().st_size for p in files) / 1e6
    serial_seconds, _ = parse_corpus(files, cpus="1")
    parse_seconds, documents = parse_corpus(files, cpus=None)
    tokens = sum(block.tokens for document in documents for block in document.blocks())
    chunk_seconds = statistics.median(
        timed(lambda: [chunk_document(d, document_id="d", namespace="bench", config=ChunkConfig()) for d in documents])
        for _ in range(3)
    )
    load = os.getloadavg()[0]
    return [
        (f"parse corpus ({len(files)} files, {size_mb:.1f} MB, {usable_cpus()} CPUs)", f"{parse_seconds:.2f} s",
         f"{size_mb / parse_seconds:.2f} MB/s (goal: all in <= 8 s), load {load:.1f}"),
        (f"parse corpus on one CPU ({CPUS_ENV}=1)", f"{serial_seconds:.2f} s",
         f"{serial_seconds / parse_seconds:.2f}x the time with every CPU"),
        (f"chunk corpus ({tokens:,} tokens, 500-token chunks)", f"{chunk_seconds:.2f} s",
         f"{tokens / chunk_seconds:,.0f} tokens/s"),
    ]  # fmt: skip


def print_table(rows: list[Row]) -> None:
    widths = [max(len(row[i]) for row in [("measure", "value", "detail"), *rows]) for i in range(3)]
    header = ("measure", "value", "detail")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")


def main() -> None:
    if not EXAMPLES.is_dir():
        subprocess.run([sys.executable, str(REPO / "examples" / "make_examples.py"), str(EXAMPLES)], check=True)
    rows = bench_ingest(EXAMPLES, "examples")
    if CORPUS.is_dir():
        rows += bench_ingest(CORPUS, "corpus")
        rows += bench_parse_and_chunk(CORPUS)
    else:
        rows.append(("corpus", "skipped", "../shared/corpus is absent"))
    print_table(rows)
    # Each in its own interpreter, so its memory peaks and caches are its own. Only the OpenSearch bench runs
    # with a node up: a starting JVM takes CPU from whatever is measured beside it.
    for name in (
        "index_bench",
        "passage_model_bench",
        "hybrid_bench",
        "embedding_bench",
        "pdf_bench",
        "slides_pdf_bench",
        "formatted_headings_bench",
        "shard_bench",
        "assets_bench",
        "hostile_bench",
        "aws_cold_start",
        "aws_cost",
        "embedded_reload_bench",
        "api_bench",
        "highlight_bench",
        "table_bench",
        "quality_bench",
        "agentic_bench",
        "memory_bench",
        "opensearch_bench",
    ):
        script = REPO / "bench" / f"{name}.py"
        if script.is_file():
            print(f"\n## {name}")
            sys.stdout.flush()
            command = [sys.executable, "-m", f"bench.{name}"]
            if name == "opensearch_bench":
                command = [str(REPO / "infra" / "with-opensearch.sh"), *command]
            done = subprocess.run(command, cwd=REPO, check=False)
            if done.returncode:
                print(f"({name} exited with status {done.returncode})")
    shutil.rmtree(REPO / ".bench", ignore_errors=True)


if __name__ == "__main__":
    main()
