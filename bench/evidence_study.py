#!/usr/bin/env python3
"""How often the answer is inside the evidence: passage packing against whole chunks, on every QA set.

For each QA set in ../shared/ireval (ingested once into a store under .bench/, with the defaults), every question
(or a seeded sample) is searched in-process at `max_tokens` 667 / 1,333 / 2,667 (about 500 / 1,000 / 2,000 words
of English) and the evidence text is scored as evaluate.py scores a run: `Ans@Nw` is whether an answer lies in
its first N words. Rows: the packing settings given (the default first), and `whole` (today's evidence before
packing: whole chunks best first under the full citation header). Also the share of `evidence_tokens` the
citation headers take at 800 tokens.

    python -m bench.evidence_study [--sets covidqa_dev,xquad_en,…] [--sample N] [--grid] [--passage-model] [--json FILE]
                                   [--chart SVG]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from bench import charts, quality_charts  # noqa: E402
from docshelf.citations import citation, citation_line  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.model import Chunk  # noqa: E402
from docshelf.search.packing import PACKING, PackingSettings  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.rerank import Reranker  # noqa: E402
from docshelf.search.service import search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402
from docshelf.tokens import count_tokens  # noqa: E402

SHARED = REPO.parent / "shared"
QA_SETS = ("covidqa_dev", "xquad_en", "xquad_zh", "drcd_zh", "cmrc2018_zh")
BUDGETS = {500: 667, 1000: 1333, 2000: 2667}  # words scored: max_tokens searched
HEADER_BUDGET = 800
STORES = REPO / ".bench"
NAMESPACE = "q"


def scorer() -> Any:
    spec = importlib.util.spec_from_file_location("evaluate", SHARED / "tools" / "ireval" / "evaluate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def store_of(name: str) -> Path:
    """The set's store, ingested with the defaults the first time."""
    store = STORES / name
    if not (store / "index").is_dir():
        subprocess.run(
            [sys.executable, "-m", "docshelf.local.cli", "ingest", str(SHARED / "ireval" / name / "docs"), "--quiet",
             "--namespace", NAMESPACE, "--store", str(store)],
            check=True,
        )  # fmt: skip
    return store


def whole_chunks(chunks: list[Chunk], max_tokens: int) -> str:
    """The evidence before packing: whole chunks, best first, each under its full citation header."""
    blocks: list[str] = []
    used = 0
    for number, chunk in enumerate(chunks, start=1):
        block = f"[{number}]{citation_line(citation(chunk))}{chunk.text}"
        cost = count_tokens(block) + (2 if blocks else 0)
        if used + cost > max_tokens:
            break
        blocks.append(block)
        used += cost
    return "\n\n".join(blocks)


def study_set(
    name: str, configs: dict[str, PackingSettings | None], sample: int | None, ev: Any, model: Reranker | None = None
) -> dict[str, Any]:
    """With `model`, the config named `passage-model` searches with it (`--passage-model local`)."""
    index = EmbeddedIndex(LocalStore(store_of(name)))
    questions = [json.loads(line) for line in (SHARED / "ireval" / name / "queries.jsonl").open(encoding="utf-8")]
    if sample and sample < len(questions):
        questions = random.Random(33).sample(questions, sample)
    found: dict[str, dict[int, int]] = {config: dict.fromkeys(BUDGETS, 0) for config in configs}
    result_level = dict.fromkeys(BUDGETS, 0)
    headers: dict[str, list[float]] = {config: [] for config in configs}
    for question in questions:
        patterns = [p for answer in question.get("answers", []) for p in ev.answer_patterns(answer)]
        for words, tokens in BUDGETS.items():
            for at, (config, settings) in enumerate(configs.items()):
                request = SearchRequest(NAMESPACE, question["query"], top_k=10, max_tokens=tokens)
                passage_model = model if config == "passage-model" else None
                response = search(index, request, packing=settings or PACKING, passage_model=passage_model)
                text = response.evidence_text if settings else whole_chunks([r.chunk for r in response.results], tokens)
                found[config][words] += ev.answer_within_budget([{"text": text}], patterns, words)
                if at == 0:
                    texts = [{"text": r.chunk.text} for r in response.results]
                    result_level[words] += ev.answer_within_budget(texts, patterns, words)
        for config, settings in configs.items():
            request = SearchRequest(NAMESPACE, question["query"], top_k=10, max_tokens=HEADER_BUDGET)
            passage_model = model if config == "passage-model" else None
            response = search(index, request, packing=settings or PACKING, passage_model=passage_model)
            if settings and response.evidence_tokens:
                header_lines = [line for line in response.evidence_text.split("\n") if line.startswith("[")]
                header_tokens = sum(count_tokens(line + "\n") for line in header_lines)
                headers[config].append(header_tokens / response.evidence_tokens)
    count = len(questions)
    return {
        "questions": count,
        "result_level": {f"Ans@{w}w": round(n / count, 4) for w, n in result_level.items()},
        **{
            config: {
                **{f"Ans@{w}w": round(n / count, 4) for w, n in found[config].items()},
                **({"header_share@800": _mean(headers[config])} if headers[config] else {}),
            }
            for config in configs
        },
    }


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4)


def grid() -> dict[str, PackingSettings | None]:
    configs: dict[str, PackingSettings | None] = {"default": PACKING, "whole": None}
    for window in (0, 1):
        for penalty in (0.0, 0.03, 0.1):
            for group in (True, False):
                configs[f"w{window}-p{penalty}-{'doc' if group else 'flat'}"] = replace(
                    PACKING, window=window, rank_penalty=penalty, group_documents=group
                )
    return configs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(QA_SETS))
    parser.add_argument("--sample", type=int, default=None, help="a seeded sample of each set's questions")
    parser.add_argument("--grid", action="store_true", help="window x rank penalty x grouping, not only the default")
    parser.add_argument("--passage-model", action="store_true", help="also a row searched with --passage-model local")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--chart", type=Path, help="also draw Ans@Nw per set as an SVG bar chart")
    args = parser.parse_args()
    ev = scorer()
    configs = grid() if args.grid else {"default": PACKING, "whole": None}
    model = None
    if args.passage_model:
        from docshelf.embeddings.local import LocalProvider
        from docshelf.embeddings.sentence_scores import EmbeddingSimilarity

        model = EmbeddingSimilarity(LocalProvider.load())
        configs["passage-model"] = PACKING
    rows = {}
    for name in args.sets.split(","):
        started = time.perf_counter()
        rows[name] = study_set(name, configs, args.sample, ev, model)
        print(f"{name}: {time.perf_counter() - started:.0f} s {json.dumps(rows[name])}", file=sys.stderr, flush=True)
    macro = {
        config: {
            measure: round(sum(rows[s][config][measure] for s in rows) / len(rows), 4)
            for measure in rows[next(iter(rows))][config]
        }
        for config in configs
    }
    report = {"sets": rows, "macro": macro}
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    if args.chart:
        charts.write(quality_charts.evidence_study_chart(report), args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
