#!/usr/bin/env python3
"""Why a plain BM25 puts the right paper first more often on long papers: one ablation run over every set.

Each development set of ../shared/ireval (cached stores of bench/ranking_study.py, `--cache`) answers a seeded
sample of its questions in process under each row below; the runs are scored with evaluate.py: the set's measure
(nDCG@10 for med, cacm, npl; MRR@10 for the QA sets) and, on the QA sets, Hit@5 and DocHit@1.

Rows: the defaults; the path channel off (`path_weight` 0), at half weight, or asking 0.5 / 0.75 / 1.0 of the
query's terms (`path_min_share`); RM3 expansion off (`expansion_weight` 0) or from fewer feedback chunks
(`feedback_chunks` 3); the passage vote across documents off, at weight 2 or 4 (1 is the default), or over the
first 20 results (not 30) (search/passage_vote.py); passage reordering off (a document's
chunks stay in fused order); and document-level evidence fused into the chunk ranking: the first 50 results of the
defaults re-scored as fused score + w / (rrf_k + r + 1) (w 1-8), r the rank of the chunk's document by the best content
score among its chunks there (`docmax`), the sum of its best three (`docsum3`), or stemmed BM25 over whole
documents (`docbm25`). `top50` is the defaults cut from the same 50 (the control of those rows). Stemmed BM25 over
chunks (bench/ranking_study.py's baseline) and over whole documents are the references.

    python -m bench.dochit_study [--sample 300] [--sets covidqa_dev,med,...] [--cache DIR] [--json FILE]
                                 [--rows "defaults,path_weight 0"]   # only these settings rows
                                 [--passage-model]   # every row with the local sentence model; the "model vote w"
                                                     # rows vary its vote's weight (3 in "defaults")
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bench import ranking_study
from bench.ranking_study import NAMESPACE, TOP_K, StemmedBaseline, StudySet
from docshelf.index.plan import SearchFilters
from docshelf.search import service
from docshelf.search.ranking import RANKING, RankingSettings
from docshelf.search.request import SearchRequest
from docshelf.search.rerank import Reranker
from docshelf.search.response import RankedChunk
from docshelf.search.service import search

SETS = ("covidqa_dev", "med", "cacm", "npl", "xquad_en", "xquad_zh", "drcd_zh", "cmrc2018_zh")
DEEP = 50
DOC_WEIGHTS = (1.0, 2.0, 4.0, 8.0)
Run = dict[str, list[dict[str, Any]]]

SETTINGS: dict[str, RankingSettings] = {
    "defaults": RANKING,
    "path_weight 0": replace(RANKING, path_weight=0.0),
    "expansion off": replace(RANKING, expansion_weight=0.0),
    "feedback_chunks 3": replace(RANKING, feedback_chunks=3),
    "path_weight 0.5": replace(RANKING, path_weight=0.5),
    "path_min_share 0.5 (before)": replace(RANKING, path_min_share=0.5),
    "path_min_share 0.75": replace(RANKING, path_min_share=0.75),
    "path_min_share 1.0": replace(RANKING, path_min_share=1.0),
    "passage vote off": replace(RANKING, passage_vote_weight=0.0),
    "passage vote w 2": replace(RANKING, passage_vote_weight=2.0),
    "passage vote w 4": replace(RANKING, passage_vote_weight=4.0),
    "passage vote depth 20": replace(RANKING, passage_vote_depth=20),
    **{f"model vote w {w:g}": replace(RANKING, model_vote_weight=w) for w in (0.5, 1.0, 2.0, 4.0)},
    **{f"model vote depth {d}": replace(RANKING, model_vote_depth=d) for d in (20, 25)},
}


# With --passage-model: every row searched with the local sentence model (`--passage-model local`).
PASSAGE_MODEL: list[Reranker] = []


def results_run(study: StudySet, ranking: RankingSettings, top_k: int = TOP_K) -> dict[str, list[RankedChunk]]:
    out = {}
    model = PASSAGE_MODEL[0] if PASSAGE_MODEL else None
    for question in study.questions:
        request = SearchRequest(NAMESPACE, question["query"], top_k=top_k, max_tokens=10**6)
        found = search(study.index, request, ranking, embedder=study.embedder, passage_model=model)
        out[str(question["qid"])] = found.results
    return out


def as_run(ranked: dict[str, list[RankedChunk]], cut: int = TOP_K) -> Run:
    return {
        qid: [{"doc": r.chunk.source_file_name, "text": r.chunk.text, "score": r.score} for r in results[:cut]]
        for qid, results in ranked.items()
    }


def document_ranks(scores: dict[str, float]) -> dict[str, int]:
    ordered = sorted(scores, key=lambda doc: (-scores[doc], doc))
    return {doc: rank for rank, doc in enumerate(ordered)}


def fused_with_documents(results: Sequence[RankedChunk], ranks: dict[str, int], weight: float) -> list[RankedChunk]:
    def score(r: RankedChunk) -> float:
        rank = ranks.get(r.chunk.source_file_name)
        return r.score + (weight / (RANKING.rrf_k + rank + 1) if rank is not None else 0.0)

    order = sorted(range(len(results)), key=lambda i: (-score(results[i]), i))
    return [results[i] for i in order]


def doc_max(results: Sequence[RankedChunk]) -> dict[str, float]:
    best: dict[str, float] = {}
    for r in results:
        best[r.chunk.source_file_name] = max(best.get(r.chunk.source_file_name, 0.0), r.lexical_score)
    return best


def doc_sum3(results: Sequence[RankedChunk]) -> dict[str, float]:
    scores: dict[str, list[float]] = {}
    for r in results:
        scores.setdefault(r.chunk.source_file_name, []).append(r.lexical_score)
    return {doc: sum(sorted(values, reverse=True)[:3]) for doc, values in scores.items()}


class DocumentBaseline:
    """Stemmed BM25 over whole documents (a document's chunks joined)."""

    def __init__(self, study: StudySet) -> None:
        texts: dict[str, list[str]] = {}
        for chunk in study.index.list_chunks(NAMESPACE, SearchFilters(), 10**9):
            texts.setdefault(chunk.source_file_name, []).append(chunk.text)
        self.names = sorted(texts)
        self.bm25 = StemmedBaseline(["\n".join(texts[name]) for name in self.names])

    def scores(self, query: str) -> dict[str, float]:
        values = self.bm25._bm25.get_scores(self.bm25.tokens(query))
        top = np.argsort(-values, kind="stable")[:DEEP]
        return {self.names[int(i)]: float(values[int(i)]) for i in top}


def measures(study: StudySet, run: Run) -> dict[str, float]:
    if study.qrels is not None:
        return {study.measure: study.score(run)}
    per_query, _ = study.scorer.eval_qa(run, study.questions)
    return {key: study.scorer.mean(per_query, key) for key in (study.measure, "Hit@5", "DocHit@1", "Ans@1000w")}


def study_set(study: StudySet, only: set[str] | None = None) -> dict[str, dict[str, float]]:
    rows: dict[str, dict[str, float]] = {"stemmed BM25 (chunks)": measures(study, study.baseline_run())}
    documents = DocumentBaseline(study)
    if study.qrels is None:
        rows["stemmed BM25 (whole documents, DocHit only)"] = {
            "DocHit@1": float(
                np.mean(
                    [
                        study.scorer.doc_key(
                            max(
                                documents.scores(q["query"]).items(),
                                key=lambda item: (item[1], item[0]),
                                default=("", 0),
                            )[0]
                        )
                        == study.scorer.doc_key(q["doc"])
                        for q in study.questions
                    ]
                )
            )
        }
    for name, ranking in SETTINGS.items():
        if only is not None and name not in only:
            continue
        rows[name] = measures(study, as_run(results_run(study, ranking)))
        print(json.dumps({"set": study.name, "row": name, **rows[name]}), flush=True)
    if only is not None:
        return rows
    original = service._siblings_by_passage
    service._siblings_by_passage = lambda terms, scores, idf, results: results  # type: ignore[assignment]
    try:
        rows["passage reordering off"] = measures(study, as_run(results_run(study, RANKING)))
    finally:
        service._siblings_by_passage = original
    deep = results_run(study, RANKING, DEEP)
    rows["top50"] = measures(study, as_run(deep))
    aggregates: dict[str, Callable[[str, Sequence[RankedChunk]], dict[str, float]]] = {
        "docmax": lambda query, results: doc_max(results),
        "docsum3": lambda query, results: doc_sum3(results),
        "docbm25": lambda query, results: documents.scores(query),
    }
    queries = {str(q["qid"]): q["query"] for q in study.questions}
    for name, aggregate in aggregates.items():
        ranks = {qid: document_ranks(aggregate(queries[qid], results)) for qid, results in deep.items()}
        for weight in DOC_WEIGHTS:
            fused = {qid: fused_with_documents(results, ranks[qid], weight) for qid, results in deep.items()}
            rows[f"{name} w={weight}"] = measures(study, as_run(fused))
    for name, row in rows.items():
        print(json.dumps({"set": study.name, "row": name, **row}), flush=True)
    return rows


def print_table(table: dict[str, dict[str, dict[str, float]]]) -> None:
    sets = list(table)
    names = list(next(iter(table.values())))
    header = []
    for name in sets:
        keys = list(table[name]["defaults"])
        header += [f"{name} {key}" for key in keys if key != "Ans@1000w" or name == "covidqa_dev"]
    print("\n| row | " + " | ".join(header) + " | macro measure | min Δ measure |")
    print("|---|" + "---|" * (len(header) + 2))
    for row in names:
        cells, deltas, values = [], [], []
        for name in sets:
            keys = [k for k in table[name]["defaults"] if k != "Ans@1000w" or name == "covidqa_dev"]
            got = table[name].get(row, {})
            cells += [f"{got[k]:.3f}" if k in got else "" for k in keys]
            measure = keys[0]
            if measure in got:
                values.append(got[measure])
                deltas.append(got[measure] - table[name]["defaults"][measure])
        macro = f"{sum(values) / len(values):.4f}" if len(values) == len(sets) else ""
        worst = f"{min(deltas):+.4f}" if len(deltas) == len(sets) else ""
        print(f"| {row} | " + " | ".join(cells) + f" | {macro} | {worst} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", type=Path, default=Path("/tmp/docshelf_ranking_study"))
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--rows", help="only these settings rows (comma-separated), no reordering or fusion rows")
    parser.add_argument("--passage-model", action="store_true", help="every row searched with --passage-model local")
    args = parser.parse_args()
    if args.passage_model:
        from docshelf.embeddings.factory import passage_model_from_config

        model = passage_model_from_config("local")
        assert model is not None
        PASSAGE_MODEL.append(model)
    scorer = ranking_study.evaluate_module()
    table = {}
    for name in args.sets.split(","):
        table[name] = study_set(
            StudySet(name, args.cache, args.sample, scorer), set(args.rows.split(",")) if args.rows else None
        )
    if args.json:
        args.json.write_text(json.dumps(table, indent=1))
    print_table(table)


if __name__ == "__main__":
    main()
