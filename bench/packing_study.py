#!/usr/bin/env python3
"""Which passages to pack: scorers for the evidence packer, on every QA set, searched once and packed many times.

Each question of a set (or a seeded sample) is searched once with the defaults (top_k 10, the stores of
`bench/evidence_study.py`); its ranked chunks and query weights are kept, and each scorer packs them at
`max_tokens` 667 / 1,333 / 2,667, scored as evaluate.py scores a run (`Ans@500w/1000w/2000w`). Also printed:
`reach`, the share of questions whose answer is anywhere in the ten chunks (what no packer can beat).

Scorers (the first is the default; the others are studies, not defaults):
  default       the packer as it is: a passage's weighted share of the query's terms, less 0.03 per chunk rank; a
                term weighs half by its idf in the collection, half by its rarity among the candidates' sentences
                (`packing.passage_weights`)
  collection-idf  the same with the collection's idf alone (`local_share` 0, the packer before the rarity)
  passage-model the packer with `--passage-model local`: the first 30 passages (by the default score) gain the
                cosine of their matching sentence to the query under the local all-MiniLM-L6-v2 (English questions
                only), with its p50 time a packing (sentence vectors are kept between packings, as in a server)
  passage-model-wW  the same with the model's weight W (`PackingSettings.model_weight`, 1.0 by default)

`--searched-with-model` searches each question as `--passage-model local` does (the model's vote on the results),
the ranking the local default packs; without it, by the words alone.

    python -m bench.packing_study [--sets covidqa_dev,…] [--sample N] [--scorers default,collection-idf,passage-model]
                                  [--searched-with-model]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bench.evidence_study import BUDGETS, NAMESPACE, QA_SETS, SHARED, scorer, store_of
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.scripts import has_cjk_letter
from docshelf.search.packing import PACKING, PackedEvidence, PackingSettings, pack_evidence
from docshelf.search.request import SearchRequest
from docshelf.search.rerank import Reranker
from docshelf.search.service import expansion_only, search
from docshelf.store import LocalStore


@dataclass(frozen=True, slots=True)
class Question:
    query: str
    patterns: list[Any]
    chunks: list[Chunk]
    weights: dict[str, float]
    deferred: set[str]


Packer = Callable[[Question, int], PackedEvidence]


def questions_of(name: str, sample: int | None, ev: Any, model: Reranker | None = None) -> list[Question]:
    index = EmbeddedIndex(LocalStore(store_of(name)))
    rows = [json.loads(line) for line in (SHARED / "ireval" / name / "queries.jsonl").open(encoding="utf-8")]
    if sample and sample < len(rows):
        rows = random.Random(33).sample(rows, sample)
    questions = []
    for row in rows:
        response = search(index, SearchRequest(NAMESPACE, row["query"], top_k=10, max_tokens=667), passage_model=model)
        patterns = [p for answer in row.get("answers", []) for p in ev.answer_patterns(answer)]
        chunks = [r.chunk for r in response.results]
        questions.append(
            Question(row["query"], patterns, chunks, dict(response.term_weights), expansion_only(response.results))
        )
    return questions


def default(question: Question, max_tokens: int) -> PackedEvidence:
    return pack_evidence(question.chunks, question.weights, max_tokens, deferred=question.deferred)


def collection_idf(question: Question, max_tokens: int) -> PackedEvidence:
    settings = replace(PACKING, local_share=0.0)
    return pack_evidence(question.chunks, question.weights, max_tokens, deferred=question.deferred, settings=settings)


class PassageModel:
    """The local sentence model in the packer (`--passage-model local`): the first `model_depth` passages gain its
    cosine of their matching sentence to the query; English questions only, as the search does by default."""

    def __init__(self, model: Reranker, settings: PackingSettings = PACKING) -> None:
        self.model = model
        self.settings = settings
        self.seconds: list[float] = []

    def pack(self, question: Question, max_tokens: int) -> PackedEvidence:
        if has_cjk_letter(question.query):
            return default(question, max_tokens)
        started = time.perf_counter()
        packed = pack_evidence(question.chunks, question.weights, max_tokens, deferred=question.deferred,
                               settings=self.settings, passage_model=self.model, query=question.query)  # fmt: skip
        self.seconds.append(time.perf_counter() - started)
        return packed


def local_similarity() -> Reranker:
    from docshelf.embeddings.local import LocalProvider
    from docshelf.embeddings.sentence_scores import EmbeddingSimilarity

    return EmbeddingSimilarity(LocalProvider.load())


def study(questions: Sequence[Question], packers: Mapping[str, Packer], ev: Any) -> dict[str, list[float]]:
    found = {name: dict.fromkeys(BUDGETS, 0) for name in packers}
    reach = 0
    for question in questions:
        reach += ev.answer_within_budget([{"text": c.text} for c in question.chunks], question.patterns, 10**9)
        for name, pack in packers.items():
            for words, tokens in BUDGETS.items():
                text = pack(question, tokens).text
                found[name][words] += ev.answer_within_budget([{"text": text}], question.patterns, words)
    count = max(1, len(questions))
    rows = {name: [found[name][w] / count for w in BUDGETS] for name in packers}
    rows["reach"] = [reach / count] * len(BUDGETS)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(QA_SETS))
    parser.add_argument("--sample", type=int, default=None, help="a seeded sample of each set's questions")
    parser.add_argument("--scorers", default="default,collection-idf")
    parser.add_argument("--searched-with-model", action="store_true", help="search as --passage-model local does")
    args = parser.parse_args()
    ev = scorer()
    names = args.scorers.split(",")
    wanted = args.searched_with_model or any(name.startswith("passage-model") for name in names)
    similarity = local_similarity() if wanted else None
    packers: dict[str, Packer] = {"default": default, "collection-idf": collection_idf}
    models: list[PassageModel] = []
    for name in names:
        if name.startswith("passage-model") and similarity is not None:
            weight = float(name.removeprefix("passage-model-w")) if name != "passage-model" else PACKING.model_weight
            models.append(PassageModel(similarity, replace(PACKING, model_weight=weight)))
            packers[name] = models[-1].pack
    packers = {name: packers[name] for name in names}
    model = models[0] if models else None
    table: dict[str, dict[str, list[float]]] = {}
    for name in args.sets.split(","):
        started = time.perf_counter()
        questions = questions_of(name, args.sample, ev, similarity if args.searched_with_model else None)
        table[name] = study(questions, packers, ev)
        print(f"{name}: {len(questions)} questions, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    print("| scorer | " + " | ".join(table) + " | macro |")
    print("|---" * (len(table) + 2) + "|")
    for scorer_name in [*packers, "reach"]:
        cells = ["/".join(f"{v:.3f}" for v in table[s][scorer_name]) for s in table]
        macro = [statistics.mean(table[s][scorer_name][i] for s in table) for i in range(len(BUDGETS))]
        print(f"| {scorer_name} | " + " | ".join(cells) + " | " + "/".join(f"{v:.3f}" for v in macro) + " |")
    if model and model.seconds:
        print(f"passage-model: p50 {statistics.median(model.seconds) * 1000:.0f} ms a packing, the model included, "
              f"its sentence vectors kept between packings ({len(model.seconds)} packings)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
