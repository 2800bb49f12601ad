#!/usr/bin/env python3
"""Retrieval quality as a user measures it, with the baseline scored in the same run.

For each set: `docshelf ingest` its documents with default settings into a fresh store, run its questions with
`docshelf search --queries … --json --top-k 10`, and score the run with ../shared/tools/ireval/evaluate.py.
The baseline is rank-bm25's BM25Okapi over the very same chunks, with the tokens of ../shared/ireval/README.md's
reference row: regex words, no stemming, CJK runs as character bigrams.

Sets: MEDLINE and XQuAD en / zh from ../shared/ireval; and Japanese questions (bench/ja_questions.jsonl) on
the corpus's Japanese manuals, asked of the whole corpus: ../shared/ireval has no Japanese set.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.cli import EXIT_FAILED, EXIT_OK  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.index.plan import SearchFilters  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402

SHARED = REPO.parent / "shared"
EVALUATE = SHARED / "tools" / "ireval" / "evaluate.py"
JA_QUESTIONS = REPO / "bench" / "ja_questions.jsonl"
TOP_K = 10
NAMESPACE = "quality"

_CJK_RUN = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)")
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class QualitySet:
    name: str
    documents: Path
    questions: Path
    measure: str
    goal: str

    @property
    def scorer_dir(self) -> Path:
        """The folder evaluate.py reads `queries.jsonl` (and `qrels.tsv`) from."""
        return self.questions.parent


def baseline_tokens(text: str) -> list[str]:
    """The reference baseline's tokens: lower-cased regex words, CJK runs as character bigrams."""
    tokens: list[str] = []
    for word in _WORD.findall(unicodedata.normalize("NFKC", text).lower()):
        for number, part in enumerate(_CJK_RUN.split(word)):
            if number % 2 and len(part) > 1:
                tokens.extend(part[i : i + 2] for i in range(len(part) - 1))
            elif part:
                tokens.append(part)
    return tokens


def baseline_run(store: Path, questions: list[dict[str, str]]) -> list[dict[str, Any]]:
    from rank_bm25 import BM25Okapi

    chunks = EmbeddedIndex(LocalStore(store)).list_chunks(NAMESPACE, SearchFilters(), 10**9)
    bm25 = BM25Okapi([baseline_tokens(chunk.text) for chunk in chunks])
    run = []
    for question in questions:
        scores = bm25.get_scores(baseline_tokens(question["query"]))
        best = np.argsort(-scores, kind="stable")[:TOP_K]
        results = [{"doc": chunks[i].source_file_name, "text": chunks[i].text, "score": float(scores[i])} for i in best]
        run.append({"qid": question["qid"], "results": results})
    return run


def docshelf_run(documents: Path, questions: Path, store: Path) -> list[dict[str, Any]]:
    docshelf = [sys.executable, "-m", "docshelf.cli"]
    where = ["--namespace", NAMESPACE, "--store", str(store)]
    ingested = subprocess.run([*docshelf, "ingest", str(documents), *where], capture_output=True, text=True)
    if ingested.returncode not in (EXIT_OK, EXIT_FAILED):  # the corpus holds files meant to fail
        raise RuntimeError(f"docshelf ingest {documents} failed: {ingested.stderr}")
    searched = subprocess.run(
        [*docshelf, "search", "--queries", str(questions), "--json", "--top-k", str(TOP_K), *where],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [json.loads(line) for line in searched.stdout.splitlines()]


def score(run: list[dict[str, Any]], scorer_dir: Path, work: Path, measure: str) -> float:
    path = work / "run.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in run), encoding="utf-8")
    scored = subprocess.run(
        [sys.executable, str(EVALUATE), str(path), str(scorer_dir), "--json"], check=True, capture_output=True
    )
    value: float = json.loads(scored.stdout)["metrics"][measure]
    return value


def quality_sets(work: Path) -> list[QualitySet]:
    def ireval(name: str, folder: str, measure: str, goal: str) -> QualitySet:
        where = SHARED / "ireval" / folder
        return QualitySet(name, where / "docs", where / "queries.jsonl", measure, goal)

    sets = [
        ireval("MEDLINE", "med", "nDCG@10", "≥ 0.72"),
        ireval("XQuAD en", "xquad_en", "MRR@10", "≥ 0.975"),
        ireval("XQuAD zh", "xquad_zh", "MRR@10", "≥ 0.975"),
    ]
    japanese = work / "ja" / "queries.jsonl"  # evaluate.py wants the file named so, in a folder of its own
    japanese.parent.mkdir(parents=True)
    japanese.write_bytes(JA_QUESTIONS.read_bytes())
    sets.append(QualitySet("Japanese manuals (corpus)", SHARED / "corpus", japanese, "MRR@10", "above the baseline"))
    return sets


def main() -> None:
    if not EVALUATE.is_file():
        print(f"skipped: {EVALUATE} is absent")
        return
    print("| set | measure | docshelf | rank-bm25, same chunks | goal |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for quality_set in quality_sets(Path(tmp)):
            if not quality_set.documents.is_dir():
                print(f"| {quality_set.name} | skipped: {quality_set.documents} is absent | | | |")
                continue
            work = Path(tmp) / quality_set.name.replace(" ", "_")
            work.mkdir()
            store = work / "store"
            ours = docshelf_run(quality_set.documents, quality_set.questions, store)
            questions = [json.loads(line) for line in quality_set.questions.read_text(encoding="utf-8").splitlines()]
            theirs = baseline_run(store, questions)
            row = [
                quality_set.name,
                f"{quality_set.measure} ({len(questions)} questions)",
                f"{score(ours, quality_set.scorer_dir, work, quality_set.measure):.4f}",
                f"{score(theirs, quality_set.scorer_dir, work, quality_set.measure):.4f}",
                quality_set.goal,
            ]
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
