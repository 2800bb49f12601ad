#!/usr/bin/env python3
"""The hit boost replayed on covidqa_dev (issue #39): does evidence users were given before lift the answers of
new questions about the same papers, and can replayed hits lift a chunk without the query's terms?

Per paper, its questions in qid order alternate between two halves. The first half is replayed as past searches:
each question is searched (no boost) and the chunk holding its answer (the first result holding it, else the
paper's first chunk that does) is counted as a hit, as `docshelf serve` counts a result its evidence cites. The
second half is then scored with and without the boost, by ../shared/tools/ireval/evaluate.py's own QA rule
(MRR@10, Hit@1, Ans@1000w), for every setting of the grid. The hostile variant counts one chunk (the corpus' chunk
holding the most distinct terms, so it matches as many questions as any) `--hostile-hits` times and asks every
question: how often that chunk enters the top 3 it was not in without the boost, whether it ever does while
holding none of the question's terms (never allowed), and every question's scores with and without those hits.
Embedded engine, defaults otherwise.

    python -m bench.hits_bench [--grid '[[hit_weight, hit_cap, hit_floor], ...]'] [--hostile-hits 5000] [--json FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from docshelf.agentic.steps import query_terms_of  # noqa: E402
from docshelf.index.analyzer import analyze  # noqa: E402
from docshelf.index.plan import SearchFilters  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402
from docshelf.search.hits_local import SqliteHits  # noqa: E402
from docshelf.search.ranking import RANKING, RankingSettings  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402

SHARED = REPO.parent / "shared"
SET = SHARED / "ireval" / "covidqa_dev"
EVALUATE = SHARED / "tools" / "ireval" / "evaluate.py"
NAMESPACE = "covid"
TOP_K = 10
GRID = [[0.0, 0.0, 0.0], [0.002, 0.006, 0.0], [0.004, 0.012, 0.0], [0.001, 0.003, 0.6], [0.002, 0.006, 0.4],
        [0.002, 0.006, 0.6], [0.002, 0.006, 0.8], [0.004, 0.012, 0.6], [0.008, 0.024, 0.6]]  # fmt: skip
MEASURES = ("MRR@10", "Hit@1", "Ans@1000w")


def scorer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ireval_evaluate", EVALUATE)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {EVALUATE}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def halves(queries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    by_paper: dict[str, list[dict[str, Any]]] = {}
    for query in queries:
        by_paper.setdefault(query["doc"], []).append(query)
    replayed, scored = [], []
    for items in by_paper.values():
        items.sort(key=lambda q: int(q["qid"]) if str(q["qid"]).isdigit() else str(q["qid"]))
        replayed += items[0::2]
        scored += items[1::2]
    return replayed, scored


def run_rows(services: LocalServices, query: str, ranking: RankingSettings, hits: SqliteHits | None) -> list[Any]:
    request = SearchRequest(NAMESPACE, query, TOP_K)
    return search(services.index, request, ranking, hits=hits).results


def holds_answer(evaluate: ModuleType, text: str, answers: list[str]) -> bool:
    patterns = [p for answer in answers for p in evaluate.answer_patterns(answer)]
    return bool(patterns) and bool(evaluate.contains_any(evaluate.joined(evaluate.match_tokens(text)), patterns))


def replay(services: LocalServices, evaluate: ModuleType, questions: list[dict[str, Any]], hits: SqliteHits) -> int:
    """Count the answer chunk of each replayed question as a hit; returns how many were found."""
    counted = 0
    for question in questions:
        chunk = next(
            (r.chunk for r in run_rows(services, question["query"], RANKING, None)
             if holds_answer(evaluate, r.chunk.text, question["answers"])),
            None,
        )  # fmt: skip
        if chunk is None:
            paper = f"{question['doc']}.md"
            chunk = next(
                (c for c in services.index.list_chunks(NAMESPACE, SearchFilters(documents=(paper,)), 10_000)
                 if holds_answer(evaluate, c.text, question["answers"])),
                None,
            )  # fmt: skip
        if chunk is not None:
            hits.record(NAMESPACE, [(chunk.document_id, chunk.chunk_id)])
            counted += 1
    return counted


def scored(
    services: LocalServices,
    evaluate: ModuleType,
    questions: list[dict[str, Any]],
    ranking: RankingSettings,
    hits: SqliteHits | None,
) -> dict[str, float]:
    run = {
        str(q["qid"]): [
            {"doc": r.chunk.source_file_name, "text": r.chunk.text, "score": r.score}
            for r in run_rows(services, q["query"], ranking, hits)
        ]
        for q in questions
    }
    per_query, _ = evaluate.eval_qa(run, questions)
    return {measure: statistics.fmean(m[measure] for m in per_query.values()) for measure in MEASURES}


def hostile(
    services: LocalServices, evaluate: ModuleType, questions: list[dict[str, Any]], store: Path, times: int
) -> dict[str, Any]:
    chunks = services.index.list_chunks(NAMESPACE, SearchFilters(), 100_000)
    target = max(chunks, key=lambda c: (len(set(analyze(c.text))), c.chunk_id))
    hits = SqliteHits(store / "hostile-hits.sqlite")
    for _ in range(times):
        hits.record(NAMESPACE, [(target.document_id, target.chunk_id)])
    moved = without_terms = already = 0
    for question in questions:
        before = [r.chunk.chunk_id for r in run_rows(services, question["query"], RANKING, None)[:3]]
        after = [r.chunk.chunk_id for r in run_rows(services, question["query"], RANKING, hits)[:3]]
        if target.chunk_id in before:
            already += 1
        elif target.chunk_id in after:
            moved += 1
            if query_terms_of(question["query"]).isdisjoint(analyze(target.text)):
                without_terms += 1
    answerable = [q for q in questions if q.get("answers")]
    return {
        "chunk": target.chunk_id, "file": target.source_file_name, "hits": times, "questions": len(questions),
        "in_top3_without_boost": already, "moved_into_top3": moved, "moved_without_query_terms": without_terms,
        "without_hits": scored(services, evaluate, answerable, RANKING, None),
        "with_hostile_hits": scored(services, evaluate, answerable, RANKING, hits),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grid", type=json.loads, default=GRID, help="[[hit_weight, hit_cap, hit_floor], ...]")
    parser.add_argument("--hostile-hits", type=int, default=5000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not SET.is_dir() or not EVALUATE.is_file():
        print(f"skipped: {SET} or {EVALUATE} is absent")
        return 0
    evaluate = scorer()
    queries = [json.loads(line) for line in (SET / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    replayed, scored_half = halves([q for q in queries if q.get("answers")])
    with tempfile.TemporaryDirectory(prefix="hits-bench-") as work:
        store = Path(work) / "store"
        started = time.perf_counter()
        subprocess.run(
            [str(REPO / ".venv/bin/docshelf"), "ingest", str(SET / "docs"), "--store", str(store), "--namespace",
             NAMESPACE, "--quiet"],
            check=True, capture_output=True,
        )  # fmt: skip
        services = LocalServices.open(store)
        print(f"ingested covidqa_dev in {time.perf_counter() - started:.1f} s; {len(replayed)} replayed, "
              f"{len(scored_half)} scored questions")  # fmt: skip
        hits = SqliteHits(store / "replay-hits.sqlite")
        counted = replay(services, evaluate, replayed, hits)
        print(f"replayed: {counted} answer chunks counted as hits")
        rows = []
        print("| hit_weight | hit_cap | hit_floor | " + " | ".join(f"{m} scored half" for m in MEASURES)
              + " | MRR@10 replayed half |")  # fmt: skip
        print("|---" * (4 + len(MEASURES)) + "|")
        for weight, cap, floor in args.grid:
            ranking = replace(RANKING, hit_weight=weight, hit_cap=cap, hit_floor=floor)
            half = scored(services, evaluate, scored_half, ranking, hits)
            again = scored(services, evaluate, replayed, ranking, hits)
            rows.append({"hit_weight": weight, "hit_cap": cap, "hit_floor": floor, "scored": half, "replayed": again})
            print(f"| {weight} | {cap} | {floor} | " + " | ".join(f"{half[m]:.4f}" for m in MEASURES)
                  + f" | {again['MRR@10']:.4f} |")  # fmt: skip
        attack = hostile(services, evaluate, queries, Path(work), args.hostile_hits)
        print(f"hostile: {attack}")
    if args.json:
        args.json.write_text(json.dumps({"grid": rows, "hostile": attack}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
