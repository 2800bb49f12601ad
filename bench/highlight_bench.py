#!/usr/bin/env python3
"""What match offsets (`highlights`, search/highlights.py) cost a search: their share of each search's time.

Ingests the corpus (the example documents when ../shared/corpus is absent), then for each query runs the search
(which computes the highlights of its results) and, on the same results, the highlights alone. Medians of 10
rounds; both measured in this process, so the ratio holds on a noisy machine.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from bench.run import CORPUS, EXAMPLES, QUERIES, files_of, ingest_folder  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402
from docshelf.search.highlights import highlight_terms, highlights  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402

ROUNDS = 10


def main() -> None:
    folder = CORPUS if CORPUS.is_dir() else EXAMPLES
    with tempfile.TemporaryDirectory() as tmp:
        _, chunks, _ = ingest_folder(folder, Path(tmp) / "store")
        index = LocalServices.open(Path(tmp) / "store").index
        search(index, SearchRequest("bench", "warm up"))
        whole, marks, spans = [], [], 0
        for _ in range(ROUNDS):
            for query in QUERIES:
                started = time.perf_counter()
                response = search(index, SearchRequest("bench", query))
                whole.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                terms = highlight_terms(query)
                found = [highlights(terms, result.chunk.text) for result in response.results]
                marks.append((time.perf_counter() - started) * 1000)
                spans += sum(map(len, found))
    label = f"{folder.name}: {len(files_of(folder))} files, {chunks} chunks, top_k 8, {len(whole)} searches"
    print(
        f"| highlights ({label}) | p50 {statistics.median(marks):.2f} ms a search | "
        f"{statistics.median(marks) / statistics.median(whole):.1%} of the search's p50 "
        f"{statistics.median(whole):.1f} ms; {spans / len(whole):.1f} spans a search |"
    )


if __name__ == "__main__":
    main()
