"""The answer-in-the-evidence part of the quality bench, for the QA sets: where in what an LLM would read the answer
lies, for docshelf and both peers, measured in the same run.

- result level: evaluate.py's Hit@5, MRR@10, DocHit@1 and Ans@500w/1000w/2000w of a run's results read in order
  (docshelf's `docshelf search --queries … --json --top-k 10`; rank-bm25 over regex words on docshelf's chunks;
  Qwen-Agent 0.0.34's own parser, chunker and keyword search, bench/qwen_agent_search.py);
- evidence level: docshelf's `evidence_text` at `--max-tokens` 667 / 1,333 / 2,667 (about 500 / 1,000 / 2,000
  words of English), scored as a run whose one result is that text: `Ans@Nw` of the text searched at N's budget.
  A peer's evidence is its chunks in order (Qwen-Agent fills its budget so), so its two levels are the same.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.qwen_agent_peer import peer_python, skip_line

REPO = Path(__file__).resolve().parents[1]
EVALUATE = REPO.parent / "shared" / "tools" / "ireval" / "evaluate.py"
QWEN_AGENT_SEARCH = REPO / "bench" / "qwen_agent_search.py"  # run by the peer's own interpreter
EVIDENCE_BUDGETS = {500: 667, 1000: 1333, 2000: 2667}  # words scored: --max-tokens searched
RESULT_MEASURES = ("Hit@5", "MRR@10", "DocHit@1", "Ans@500w", "Ans@1000w", "Ans@2000w")


def metrics(run: list[dict[str, Any]], scorer_dir: Path, work: Path) -> dict[str, float]:
    """evaluate.py's metrics of `run` (every measure it reports for the set)."""
    path = work / "answers-run.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in run), encoding="utf-8")
    scored = subprocess.run(
        [sys.executable, str(EVALUATE), str(path), str(scorer_dir), "--json"], check=True, capture_output=True
    )
    values: dict[str, float] = json.loads(scored.stdout)["metrics"]
    return values


def result_level(run: list[dict[str, Any]], scorer_dir: Path, work: Path) -> dict[str, float]:
    scored = metrics(run, scorer_dir, work)
    return {name: round(scored[name], 4) for name in RESULT_MEASURES}


def evidence_level(search: Any, questions: Path, scorer_dir: Path, work: Path) -> dict[str, float]:
    """Ans@Nw of docshelf's evidence text searched at N's budget; `search(questions, max_tokens)` is the batch run."""
    levels = {}
    for words, max_tokens in EVIDENCE_BUDGETS.items():
        lines = search(questions, max_tokens)
        run = [{"qid": line["qid"], "results": [{"doc": "", "text": line["evidence_text"]}]} for line in lines]
        levels[f"Ans@{words}w"] = round(metrics(run, scorer_dir, work)[f"Ans@{words}w"], 4)
    return levels


def qwen_agent_run(documents: Path, questions: Path, work: Path) -> list[dict[str, Any]] | None:
    """Qwen-Agent's run over the set, or None (with a skip line) when its interpreter is absent."""
    python = peer_python()
    if python is None:
        print(skip_line(), file=sys.stderr)
        return None
    ran = subprocess.run(
        [str(python), str(QWEN_AGENT_SEARCH), str(documents), str(questions), str(work / "qwen-agent")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [json.loads(line) for line in ran.stdout.splitlines()]
