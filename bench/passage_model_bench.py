#!/usr/bin/env python3
"""What `--passage-model local` costs a search: covidqa_dev's questions over its 51 long papers (the store of
bench/evidence_study.py), each searched without the model and with it, alternated in one process so that both see
the same load. Three rounds: no sentence vector kept between searches (every search embeds its first passages'
sentences), the vectors kept as a server keeps them (questions about the same paper share passages), and a second
round over the same questions with every vector kept.
Medians, p90 and the ratio to the search without the model. A clear line, and nothing else, when
../shared or the local model is absent.

    python -m bench.passage_model_bench [--questions 150]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from bench.evidence_study import NAMESPACE, SHARED, store_of
from docshelf.embeddings.catalog import DEFAULT_LOCAL_MODEL, find_model_dir
from docshelf.index.embedded import EmbeddedIndex
from docshelf.search.packing import PACKING
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore

SET = "covidqa_dev"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=150)
    args = parser.parse_args()
    queries = SHARED / "ireval" / SET / "queries.jsonl"
    if not queries.is_file():
        print(f"passage model bench: skipped, {queries} is absent")
        return 0
    if find_model_dir(DEFAULT_LOCAL_MODEL) is None:
        print(f"passage model bench: skipped, the local model {DEFAULT_LOCAL_MODEL} is not installed (make setup)")
        return 0
    from docshelf.embeddings.local import LocalProvider
    from docshelf.embeddings.sentence_scores import EmbeddingSimilarity

    index = EmbeddedIndex(LocalStore(store_of(SET)))
    rows = [json.loads(line) for line in queries.open(encoding="utf-8")][: args.questions]
    provider = LocalProvider.load()
    model = EmbeddingSimilarity(provider)
    search(index, SearchRequest(NAMESPACE, "warm up the index and the token encoder"))
    print(f"| {SET}, {len(rows)} questions, top 10, max_tokens 1,333, depth {PACKING.model_depth} | p50 | p90 | "
          "x the search without |")  # fmt: skip
    print("|---|---|---|---|")
    rounds = (
        ("no sentence vector kept", False),  # a new cache each search
        ("the vectors of the questions before kept", True),
        ("every question's vectors kept (a second round)", True),
    )
    for label, kept in rounds:
        without: list[float] = []
        with_model: list[float] = []
        for row in rows:
            request = SearchRequest(NAMESPACE, row["query"], top_k=10, max_tokens=1333)
            for times, passage_model in (
                (without, None),
                (with_model, model if kept else EmbeddingSimilarity(provider)),
            ):
                started = time.perf_counter()
                search(index, request, passage_model=passage_model)
                times.append((time.perf_counter() - started) * 1000)
        base = statistics.median(without)
        print(f"| without the model | {base:.1f} ms | {percentile(without, 0.9):.1f} ms | 1.0 |")
        print(f"| with `--passage-model local`, {label} | {statistics.median(with_model):.1f} ms | "
              f"{percentile(with_model, 0.9):.1f} ms | {statistics.median(with_model) / base:.1f} |")  # fmt: skip
    return 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


if __name__ == "__main__":
    sys.exit(main())
