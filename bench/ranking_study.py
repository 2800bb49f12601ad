#!/usr/bin/env python3
"""How the ranking's defaults (search/ranking.py, `RankingSettings`) were chosen: leave-one-collection-out.

Each development set of ../shared/ireval is ingested once into a cached embedded store (`--cache`, default
/tmp/docshelf_ranking_study), then every setting of a grid answers its questions in process
(`docshelf.search.service.search(..., ranking=settings)`) and is scored with ../shared/tools/ireval/evaluate.py's
functions: nDCG@10 for the judged sets (med, cacm, npl), MRR@10 for the QA sets. The baseline is stemmed BM25 on the
same chunks: rank-bm25's BM25Okapi over Snowball-stemmed words without stop words, CJK runs as character bigrams,
a repeated query term counted again.

Leave-one-collection-out: for each held-out set, the setting with the best mean relative gain over the baseline on
the other sets is chosen, and its score on the held-out set reported. A default must be chosen on every fold (or
have the best worst-case gain); a setting that wins on some sets and loses on others is not one.

    python -m bench.ranking_study [--sample 400] [--sets med,cacm,...] [--confirm]

`--semantic MODEL` (a local model, e.g. all-minilm-l6-v2-q) adds the semantic channel: each set's chunks are
embedded once (vectors cached in the study cache by docshelf.embeddings.cache.VectorCache) and written with their
vectors into a store of their own; the grid then holds `semantic_weight` (and `semantic_cjk`). Embedding runs at
the local provider's speed (about 25 passages a second on 2 CPUs).

`--confirm` scores the defaults and the settings of before the study on the full sets instead of the grid;
`--opensearch URL` runs the defaults through both engines. `--tenancy URL` runs them on OpenSearch twice in one run:
each set a namespace with an index of its own, and every set a namespace of one shared index (the shared tenancy,
index/opensearch/tenancy.py, whose BM25 statistics mix the namespaces): docs/evaluation/tenancy.md.
README's table came from these grids (600 questions):

    --grid '{"repeat_saturation": [0, 1.2, 8, "inf"], "term_weight": [0, 0.5, 1.5], "expansion_weight": [0.5, 1]}'
    --grid '{"repeat_saturation": [5.0, 8.0, 15.0], "term_weight": [0.0, 0.5], "expansion_weight": [0.25, 0.5]}'
    --grid '{"expansion_weight": [0.5, 0.75]}'
    --grid '{}' --bm25 '[[0.9,0.5],[0.9,0.75],[0.9,0.9],[1.2,0.5],[1.2,0.75],[1.2,0.9],[1.5,0.5],[1.5,0.75],
                         [1.5,0.9],[2,0.5],[2,0.75],[2,0.9]]'

(the first two with the term channel's `term_min_share` at 0, as before the study; at 1.0 it scores as weight 0).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import math
import random
import re
import shutil
import subprocess
import sys
import unicodedata
from dataclasses import asdict, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]

from docshelf.index import bm25_math  # noqa: E402
from docshelf.index.base import SearchBackend  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.index.plan import SearchFilters  # noqa: E402
from docshelf.index.stopwords import ENGLISH_STOP_WORDS  # noqa: E402
from docshelf.search.ranking import RANKING, RankingSettings  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402

SHARED = REPO.parent / "shared"
IREVAL = SHARED / "ireval"
EVALUATE = SHARED / "tools" / "ireval" / "evaluate.py"
SETS = ("med", "cacm", "npl", "xquad_en", "xquad_zh", "drcd_zh", "cmrc2018_zh")
NAMESPACE = "rank"
TOP_K = 10
# The ranking before this study: a repeated query term counted once, the seed RRF weights, any term channel match.
BEFORE = RankingSettings(repeat_saturation=0.0, expansion_weight=1.0, term_min_share=0.0)

# The grid: each constant at the values studied, the others at their defaults (`--grid` replaces it, as JSON;
# "inf" stands for math.inf).
GRID: dict[str, tuple[Any, ...]] = {
    "repeat_saturation": (0.0, 1.2, 8.0, math.inf),
    "content_weight": (0.0, 1.0, 2.0),
    "expansion_weight": (1.0, 2.0),
}

_CJK_RUN = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)")
_WORD = re.compile(r"[^\W_]+")


def evaluate_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ireval_evaluate", EVALUATE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class StemmedBaseline:
    """BM25Okapi over Snowball-stemmed words without stop words, CJK runs as character bigrams."""

    def __init__(self, texts: list[str]) -> None:
        import snowballstemmer
        from rank_bm25 import BM25Okapi

        self._stem = snowballstemmer.stemmer("english").stemWord
        self._bm25 = BM25Okapi([self.tokens(text) for text in texts])

    def tokens(self, text: str) -> list[str]:
        tokens: list[str] = []
        for word in _WORD.findall(unicodedata.normalize("NFKC", text).casefold()):
            for number, part in enumerate(_CJK_RUN.split(word)):
                if number % 2:
                    tokens.extend([part] if len(part) == 1 else [part[i : i + 2] for i in range(len(part) - 1)])
                elif part and part not in ENGLISH_STOP_WORDS:
                    tokens.append(self._stem(part))
        return tokens

    def top(self, query: str, k: int) -> list[int]:
        scores = self._bm25.get_scores(self.tokens(query))
        return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


class StudySet:
    def __init__(
        self,
        name: str,
        cache: Path,
        sample: int | None,
        scorer: ModuleType,
        opensearch: str | None = None,
        semantic: str | None = None,
    ) -> None:
        self.name = name
        self.folder = IREVAL / name
        self.scorer = scorer
        engine = (
            []
            if opensearch is None
            else ["--backend", "opensearch", "--opensearch-url", opensearch, "--opensearch-index", self.index_name]
        )
        where = cache / name / ("opensearch" if opensearch else "embedded")
        if not (where / "done").exists():
            ingest(self.folder / "docs", where / "store", engine)
            (where / "done").write_text("ok")
        self.store = where / "store"
        self.embedder: Any = None
        if semantic is not None:
            self.embedder, self.store = with_vectors(self.store, cache / name, semantic)
        self.index: SearchBackend = EmbeddedIndex(LocalStore(self.store))
        if opensearch:
            from docshelf.index.opensearch import OpenSearchIndex
            from docshelf.index.opensearch.client import opensearch_client

            self.index = OpenSearchIndex(opensearch_client(opensearch), index=self.index_name)
        lines = (self.folder / "queries.jsonl").read_text(encoding="utf-8").splitlines()
        self.questions = [json.loads(line) for line in lines]
        self.qrels_path = self.folder / "qrels.tsv"
        self.qrels = scorer.load_qrels(str(self.qrels_path)) if self.qrels_path.exists() else None
        if self.qrels is None and sample and len(self.questions) > sample:
            self.questions = random.Random(21).sample(self.questions, sample)
        self.measure = "nDCG@10" if self.qrels is not None else "MRR@10"

    @property
    def index_name(self) -> str:
        return f"rank-{self.name.replace('_', '-')}"

    def run(self, ranking: RankingSettings, namespace: str = NAMESPACE) -> dict[str, list[dict[str, Any]]]:
        run = {}
        for question in self.questions:
            request = SearchRequest(namespace, question["query"], top_k=TOP_K, max_tokens=10**6)
            response = search(self.index, request, ranking, embedder=self.embedder)
            run[str(question["qid"])] = [
                {"doc": r.chunk.source_file_name, "text": r.chunk.text, "score": r.score} for r in response.results
            ]
        return run

    def baseline_run(self) -> dict[str, list[dict[str, Any]]]:
        chunks = self.index.list_chunks(NAMESPACE, SearchFilters(), 10**9)
        baseline = StemmedBaseline([chunk.text for chunk in chunks])
        run = {}
        for question in self.questions:
            best = [chunks[i] for i in baseline.top(question["query"], TOP_K)]
            run[str(question["qid"])] = [{"doc": c.source_file_name, "text": c.text, "score": 0.0} for c in best]
        return run

    def score(self, run: dict[str, list[dict[str, Any]]]) -> float:
        if self.qrels is not None:
            per_query = self.scorer.eval_qrels(run, self.qrels)
        else:
            per_query, _ = self.scorer.eval_qa(run, self.questions)
        value: float = self.scorer.mean(per_query, self.measure)
        return value


def with_vectors(store: Path, folder: Path, model_id: str) -> tuple[Any, Path]:
    """(the local provider of `model_id`, a store holding the chunks of `store` with their vectors), made once."""
    from docshelf.embeddings.cache import VectorCache
    from docshelf.embeddings.local import LocalProvider
    from docshelf.index.base import DocumentChunks

    provider = LocalProvider.load(model_id)
    target = folder / f"hybrid-{provider.model.key}"
    if (target / "done").exists():
        return provider, target / "store"
    source = EmbeddedIndex(LocalStore(store))
    chunks = source.list_chunks(NAMESPACE, SearchFilters(), 10**9)
    by_document: dict[str, list[Any]] = {}
    for chunk in chunks:
        by_document.setdefault(chunk.document_id, []).append(chunk)
    cache = VectorCache(LocalStore(folder / "vector-cache"), provider)
    index = EmbeddedIndex(LocalStore(target / "store"))
    for number, (document_id, own) in enumerate(sorted(by_document.items()), 1):
        vectors = cache.vectors(NAMESPACE, document_id, own[0].revision, [(c.chunk_id, c.text) for c in own])
        index.write(NAMESPACE, [DocumentChunks(document_id, own[0].revision, own, vectors, provider.model)])
        if number % 200 == 0:
            print(f"{folder.name}: {number}/{len(by_document)} documents embedded", file=sys.stderr, flush=True)
    index.commit()
    (target / "done").write_text("ok")
    return provider, target / "store"


def ingest(documents: Path, store: Path, engine: list[str]) -> None:
    command = [sys.executable, "-m", "docshelf.local.cli", "ingest", str(documents), "--namespace", NAMESPACE]
    subprocess.run([*command, "--store", str(store), *engine], check=False, capture_output=True)


def grid_settings(grid: dict[str, tuple[Any, ...]]) -> list[RankingSettings]:
    names = list(grid)
    return [replace(RANKING, **dict(zip(names, values, strict=True))) for values in itertools.product(*grid.values())]


def label(settings: RankingSettings, grid: dict[str, tuple[Any, ...]]) -> str:
    changed = {k: v for k, v in asdict(settings).items() if k in grid}
    return " ".join(f"{k}={v}" for k, v in changed.items())


def loco(scores: dict[str, dict[str, float]], baseline: dict[str, float]) -> list[tuple[str, str, float, float]]:
    """(held-out set, the setting the other sets choose, its held-out score, its held-out relative gain)."""
    rows = []
    for held_out in baseline:
        others = [name for name in baseline if name != held_out]
        chosen = max(scores, key=lambda s: sum(scores[s][n] / baseline[n] - 1 for n in others) / len(others))
        gain = scores[chosen][held_out] / baseline[held_out] - 1
        rows.append((held_out, chosen, scores[chosen][held_out], gain))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", type=Path, default=Path("/tmp/docshelf_ranking_study"))
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--confirm", action="store_true")
    parser.add_argument("--grid", type=json.loads, default=GRID)
    parser.add_argument("--opensearch", metavar="URL", help="the defaults through both engines (parity)")
    parser.add_argument("--tenancy", metavar="URL", help="the defaults: an index per namespace, then one shared")
    parser.add_argument("--bm25", type=json.loads, help="embedded BM25 (k1, b) pairs: [[1.2, 0.75]]")
    parser.add_argument("--semantic", metavar="MODEL", help="the semantic channel with this local model")
    args = parser.parse_args()
    grid = {name: tuple(math.inf if v == "inf" else v for v in values) for name, values in args.grid.items()}
    if not EVALUATE.is_file():
        print(f"skipped: {EVALUATE} is absent")
        return
    scorer = evaluate_module()
    if args.opensearch:
        parity(args.sets.split(","), args.cache, scorer, args.opensearch)
        return
    if args.tenancy:
        tenancy_cost(args.sets.split(","), args.cache, scorer, args.tenancy)
        return
    sample = None if args.confirm else args.sample
    sets = [StudySet(name, args.cache, sample, scorer, semantic=args.semantic) for name in args.sets.split(",")]
    baseline = {s.name: s.score(s.baseline_run()) for s in sets}
    candidates = {"before": BEFORE, "defaults": RANKING} if args.confirm else {}
    candidates.update((label(settings, grid), settings) for settings in grid_settings(grid) if not args.confirm)
    scores: dict[str, dict[str, float]] = {}
    for k1, b in args.bm25 or [(bm25_math.K1, bm25_math.B)]:
        if args.bm25:
            with_bm25(sets, k1, b)
        for name, settings in candidates.items():
            key = f"k1={k1} b={b} {name}".strip() if args.bm25 else name
            scores[key] = {s.name: s.score(s.run(settings)) for s in sets}
            print(json.dumps({"setting": key, **scores[key]}), flush=True)
    print_tables(scores, baseline)


def with_bm25(sets: list[StudySet], k1: float, b: float) -> None:
    """The embedded engine's BM25 constants set to (k1, b), each set's index opened again (scores are cached)."""
    bm25_math.K1, bm25_math.B = k1, b
    for study_set in sets:
        study_set.index = EmbeddedIndex(LocalStore(study_set.store))  # keeps the study set's vectors


def parity(names: list[str], cache: Path, scorer: ModuleType, url: str) -> None:
    """The defaults on the full sets through the embedded index and OpenSearch; the OpenSearch indices are dropped."""
    print("| set | measure | embedded | OpenSearch | difference |\n|---|---|---|---|---|")
    for name in names:
        embedded = StudySet(name, cache, None, scorer)
        remote = StudySet(name, cache, None, scorer, url)
        try:
            ours, theirs = embedded.score(embedded.run(RANKING)), remote.score(remote.run(RANKING))
        finally:
            remote.index.drop_index()  # type: ignore[attr-defined]
            shutil.rmtree(cache / name / "opensearch")  # its registry would call the dropped documents published
        print(f"| {name} | {embedded.measure} | {ours:.4f} | {theirs:.4f} | {theirs - ours:+.4f} |", flush=True)


def tenancy_cost(names: list[str], cache: Path, scorer: ModuleType, url: str) -> None:
    """The defaults on the full sets, each set a namespace, on OpenSearch: an index per namespace, then all in one
    shared index; the chunks are the embedded study store's, written to both; the indices are dropped."""
    from docshelf.index.base import DocumentChunks
    from docshelf.index.opensearch import OpenSearchIndex
    from docshelf.index.opensearch.client import opensearch_client
    from docshelf.index.opensearch.tenancy import Tenancy

    client = opensearch_client(url, timeout=120)
    run = f"rank-tenancy-{random.Random().randrange(16**6):06x}"
    layouts = {
        "index per namespace": OpenSearchIndex(client, index=f"{run}-own"),
        "shared": OpenSearchIndex(client, index=f"{run}-shared", tenancy=Tenancy("shared", 1, large_chunks=0)),
    }
    sets = [StudySet(name, cache, None, scorer) for name in names]
    print("| set | measure | index per namespace | shared | difference |\n|---|---|---|---|---|")
    try:
        for study_set in sets:
            namespace = study_set.name.replace("_", "-")
            documents: dict[str, list[Any]] = {}
            for chunk in study_set.index.list_chunks(NAMESPACE, SearchFilters(), 10**9):
                documents.setdefault(chunk.document_id, []).append(replace(chunk, namespace=namespace))
            batch = [DocumentChunks(doc, chunks[0].revision, chunks) for doc, chunks in documents.items()]
            for layout in layouts.values():
                for at in range(0, len(batch), 200):
                    assert not layout.write(namespace, batch[at : at + 200])
                layout.commit()
        for study_set in sets:
            namespace = study_set.name.replace("_", "-")
            scores = []
            for layout in layouts.values():
                study_set.index = layout
                scores.append(study_set.score(study_set.run(RANKING, namespace)))
            own, shared = scores
            print(f"| {study_set.name} | {study_set.measure} | {own:.4f} | {shared:.4f} | {shared - own:+.4f} |")
    finally:
        for layout in layouts.values():
            layout.drop_index()


def print_tables(scores: dict[str, dict[str, float]], baseline: dict[str, float]) -> None:
    names = list(baseline)
    print("\n| setting | " + " | ".join(names) + " | mean gain | min gain |")
    print("|---|" + "---|" * (len(names) + 2))
    print("| stemmed BM25 | " + " | ".join(f"{baseline[n]:.4f}" for n in names) + " | | |")
    for setting, row in scores.items():
        gains = [row[n] / baseline[n] - 1 for n in names]
        cells = " | ".join(f"{row[n]:.4f}" for n in names)
        print(f"| {setting} | {cells} | {100 * sum(gains) / len(gains):+.1f}% | {100 * min(gains):+.1f}% |")
    if len(scores) > 2 and len(names) > 2:
        print("\n| held out | chosen on the others | held-out score | held-out gain |\n|---|---|---|---|")
        for held_out, chosen, value, gain in loco(scores, baseline):
            print(f"| {held_out} | {chosen} | {value:.4f} | {100 * gain:+.1f}% |")


if __name__ == "__main__":
    main()
