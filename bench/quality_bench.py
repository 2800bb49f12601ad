#!/usr/bin/env python3
"""Retrieval quality as a user measures it, with the baselines scored in the same run.

For each set: `docshelf ingest` its documents with default settings into a fresh store (once per engine:
embedded, and OpenSearch when a node answers), run its questions with `docshelf search --queries … --json
--top-k 10`, and score the run with ../shared/tools/ireval/evaluate.py: nDCG@10 on the judged sets (MEDLINE,
CACM, NPL), MRR@10 on the QA sets (XQuAD en / zh, DRCD, CMRC 2018). The baselines (bench/quality_baselines.py)
rank the embedded store's own chunks: rank-bm25 over regex words, and a stemmed, stop-worded BM25 standing in
for Qwen-Agent's keyword search — the bar to beat. "gain" is embedded docshelf's relative gain over the stemmed
baseline; the macro average is over the ../shared/ireval sets.

The Japanese rows: bench/ja_questions.jsonl asks the whole corpus (its Japanese manuals hold the answers), and
bench/ja_docs_questions.jsonl asks generated Japanese office documents (tests/support/ja_documents.py: work rules with
and without heading styles, Shift_JIS notices and CSV, a workbook with Japanese sheet names): ../shared/ireval has no
Japanese set.

    python -m bench.quality_bench [--sets med,cacm,…] [--engines embedded,opensearch] [--json FILE]
                                  [--chart SVG] [--answers-chart SVG]
    python -m bench.quality_bench --guard [--write-expected]   # the CI subset (tests/functional/test_quality_guard.py)
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from bench import charts, quality_charts  # noqa: E402
from bench.quality_answers import RESULT_MEASURES, evidence_level, qwen_agent_run, result_level  # noqa: E402
from bench.quality_baselines import TOP_K, baseline_run, regex_tokens, stemmed_tokens  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.index.plan import SearchFilters  # noqa: E402
from docshelf.local.cli import EXIT_FAILED, EXIT_OK  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402

SHARED = REPO.parent / "shared"
EVALUATE = SHARED / "tools" / "ireval" / "evaluate.py"
JA_QUESTIONS = REPO / "bench" / "ja_questions.jsonl"
JA_DOCS_QUESTIONS = REPO / "bench" / "ja_docs_questions.jsonl"
EXPECTED = REPO / "bench" / "quality_expected.json"
NAMESPACE = "quality"
ENGINES = ("embedded", "opensearch")
OPENSEARCH_URL = "http://127.0.0.1:9200"
OPENSEARCH_PREFIX = "qbench"

# name: (folder under ../shared/ireval, label, measure); "ja" is the corpus with bench/ja_questions.jsonl, "ja_docs"
# the generated Japanese documents with bench/ja_docs_questions.jsonl.
SETS = {
    "med": ("med", "MEDLINE", "nDCG@10"),
    "cacm": ("cacm", "CACM", "nDCG@10"),
    "npl": ("npl", "NPL", "nDCG@10"),
    "xquad_en": ("xquad_en", "XQuAD en", "MRR@10"),
    "xquad_zh": ("xquad_zh", "XQuAD zh", "MRR@10"),
    "drcd_zh": ("drcd_zh", "DRCD zh-Hant", "MRR@10"),
    "cmrc2018_zh": ("cmrc2018_zh", "CMRC 2018 zh", "MRR@10"),
    "covidqa_dev": ("covidqa_dev", "COVID-QA dev (long papers)", "MRR@10"),
    "ja": ("", "Japanese manuals (corpus)", "MRR@10"),
    "ja_docs": ("", "Japanese office documents (generated)", "MRR@10"),
}
# The CI guard: small enough for ~1 minute, one set of each kind and language (`None`: every question).
GUARD_SETS = {"med": None, "cacm": None, "xquad_en": 200, "cmrc2018_zh": 200}
GUARD_TOLERANCE = 0.003  # scores are deterministic; the slack absorbs float sums and tie order across platforms


@dataclass(frozen=True)
class QualitySet:
    key: str
    label: str
    documents: Path
    questions: Path
    measure: str

    @property
    def scorer_dir(self) -> Path:
        """The folder evaluate.py reads `queries.jsonl` (and `qrels.tsv`) from."""
        return self.questions.parent

    @property
    def in_macro(self) -> bool:
        return self.key not in ("ja", "ja_docs")


@dataclass(frozen=True)
class Engine:
    name: str
    options: tuple[str, ...] = ()


def quality_set(key: str, work: Path, limit: int | None = None) -> QualitySet:
    """The set `key`; its first `limit` questions only when given (copied to `work`, with the qrels)."""
    folder, label, measure = SETS[key]
    if key == "ja":
        documents, source = SHARED / "corpus", JA_QUESTIONS
    elif key == "ja_docs":
        from tests.support.ja_documents import write_documents

        documents, source = work / "ja-documents", JA_DOCS_QUESTIONS
        write_documents(documents)
    else:
        documents, source = SHARED / "ireval" / folder / "docs", SHARED / "ireval" / folder / "queries.jsonl"
    if limit is None and key not in ("ja", "ja_docs"):
        return QualitySet(key, label, documents, source, measure)
    questions = work / f"{key}-questions" / "queries.jsonl"  # evaluate.py wants the file so named
    questions.parent.mkdir(parents=True)
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    questions.write_text("".join(lines[:limit]), encoding="utf-8")
    if (source.parent / "qrels.tsv").is_file():
        (questions.parent / "qrels.tsv").write_bytes((source.parent / "qrels.tsv").read_bytes())
    if limit is not None:
        label = f"{label}, first {limit} questions"
    return QualitySet(key, label, documents, questions, measure)


def docshelf_run(
    documents: Path, questions: Path, store: Path, options: tuple[str, ...] = (), namespace: str = NAMESPACE
) -> list[dict[str, Any]]:
    docshelf = [sys.executable, "-m", "docshelf.local.cli"]
    where = ["--namespace", namespace, "--store", str(store), *options]
    ingested = subprocess.run(
        [*docshelf, "ingest", str(documents), "--quiet", *where], capture_output=True, text=True
    )  # fmt: skip
    if ingested.returncode not in (EXIT_OK, EXIT_FAILED):  # the corpus holds files meant to fail
        raise RuntimeError(f"docshelf ingest {documents} failed: {ingested.stderr}")
    return docshelf_search(questions, store, options, namespace)


def docshelf_search(
    questions: Path, store: Path, options: tuple[str, ...], namespace: str, max_tokens: int | None = None
) -> list[dict[str, Any]]:
    """`docshelf search --queries … --json --top-k 10` over an ingested store (at `--max-tokens` when given)."""
    budget = ("--max-tokens", str(max_tokens)) if max_tokens is not None else ()
    searched = subprocess.run(
        [sys.executable, "-m", "docshelf.local.cli", "search", "--queries", str(questions), "--json",
         "--top-k", str(TOP_K), "--namespace", namespace, "--store", str(store), *options, *budget],
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


def measure_set(quality: QualitySet, engines: list[Engine], work: Path, answers_too: bool = True) -> dict[str, Any]:
    """Scores of `quality` for every engine and both baselines (over the embedded store's chunks), with the
    seconds each step took (an engine's: its ingest, search and scoring)."""
    questions = [json.loads(line) for line in quality.questions.read_text(encoding="utf-8").splitlines()]
    row: dict[str, Any] = {"label": quality.label, "measure": quality.measure, "questions": len(questions)}
    steps: dict[str, float] = {}
    namespace = f"{NAMESPACE}-{quality.key}"  # a namespace per set: one OpenSearch index each
    answers: dict[str, Any] = {}
    with_answers = answers_too and quality.key != "ja" and any("answers" in question for question in questions)
    for engine in engines:
        started = time.perf_counter()
        store = work / engine.name
        run = docshelf_run(quality.documents, quality.questions, store, engine.options, namespace)
        row[engine.name] = score(run, quality.scorer_dir, work, quality.measure)
        if with_answers:
            answers[f"{engine.name} results"] = result_level(run, quality.scorer_dir, work)
            budgeted = partial(_budgeted_search, store=store, options=engine.options, namespace=namespace)
            answers[f"{engine.name} evidence"] = evidence_level(budgeted, quality.questions, quality.scorer_dir, work)
        steps[engine.name] = time.perf_counter() - started
    started = time.perf_counter()
    if "embedded" not in row:  # the baselines rank the embedded store's chunks
        docshelf_run(quality.documents, quality.questions, work / "embedded", (), namespace)
    chunks = EmbeddedIndex(LocalStore(work / "embedded")).list_chunks(namespace, SearchFilters(), 10**9)
    row["chunks"] = len(chunks)
    for name, tokens in (("regex_bm25", regex_tokens), ("stemmed_bm25", stemmed_tokens)):
        baseline = baseline_run(chunks, questions, tokens)
        row[name] = score(baseline, quality.scorer_dir, work, quality.measure)
        if with_answers and name == "regex_bm25":
            answers["rank-bm25"] = result_level(baseline, quality.scorer_dir, work)
    steps["baselines"] = time.perf_counter() - started
    if with_answers:
        started = time.perf_counter()
        peer = qwen_agent_run(quality.documents, quality.questions, work)
        if peer is not None:
            answers["Qwen-Agent 0.0.34"] = result_level(peer, quality.scorer_dir, work)
            steps["qwen"] = time.perf_counter() - started
        row["answers"] = answers
    if "embedded" in row:
        row["gain"] = row["embedded"] / row["stemmed_bm25"] - 1
    if "embedded" in row and "opensearch" in row:
        row["engine_gap"] = abs(row["embedded"] - row["opensearch"])
    row["steps"] = {name: round(seconds, 1) for name, seconds in steps.items()}
    row["seconds"] = round(sum(steps.values()), 1)
    return row


def measure(sets: dict[str, int | None], engines: list[Engine], answers_too: bool = True) -> dict[str, Any]:
    """Every set's row, the macro average gain and the largest gap between the engines."""
    started = time.perf_counter()
    rows: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="quality-bench-") as tmp:
        for key, limit in sets.items():
            work = Path(tmp) / key
            work.mkdir()
            quality = quality_set(key, work, limit)
            if not quality.documents.is_dir():
                rows[key] = {"label": quality.label, "skipped": f"{quality.documents} is absent"}
                continue
            rows[key] = measure_set(quality, engines, work, answers_too)
            shutil.rmtree(work)  # a store holds ~8 files a document: NPL's two stores are ~180k files
            print(f"  {key}: {rows[key]['seconds']} s", file=sys.stderr, flush=True)
    gains = [row["gain"] for key, row in rows.items() if "gain" in row and SETS[key][0]]
    gaps = [row["engine_gap"] for row in rows.values() if "engine_gap" in row]
    return {
        "engines": [engine.name for engine in engines],
        "sets": rows,
        "macro_gain": sum(gains) / len(gains) if gains else None,
        "max_engine_gap": max(gaps) if gaps else None,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _budgeted_search(
    questions: Path, max_tokens: int, *, store: Path, options: tuple[str, ...], namespace: str
) -> list[dict[str, Any]]:
    return docshelf_search(questions, store, options, namespace, max_tokens)


def print_answers(result: dict[str, Any]) -> None:
    """Where the answer lies in what an LLM reads, per QA set and system (bench/quality_answers.py)."""
    rows = [(row["label"], row["answers"]) for row in result["sets"].values() if row.get("answers")]
    if not rows:
        return
    measures = list(RESULT_MEASURES)
    print("\n| set | system | " + " | ".join(measures) + " |\n|---|---|" + "---|" * len(measures))
    for label, answers in rows:
        for system, values in answers.items():
            cells = [f"{values[m]:.4f}" if m in values else "" for m in measures]
            print(f"| {label} | {system} | " + " | ".join(cells) + " |")
    systems = {system for _, answers in rows for system in answers}
    for system in sorted(systems):
        having = [answers[system] for _, answers in rows if system in answers]
        if len(having) == len(rows):
            macro = {m: sum(values[m] for values in having) / len(having) for m in having[0]}
            cells = [f"{macro[m]:.4f}" if m in macro else "" for m in measures]
            print(f"| macro ({len(rows)} sets) | {system} | " + " | ".join(cells) + " |")


def _cell(row: dict[str, Any], name: str, percent: bool = False) -> str:
    if name not in row:
        return "–"
    return f"{row[name]:+.1%}" if percent else f"{row[name]:.4f}"


def _seconds(row: dict[str, Any]) -> str:
    short = {"embedded": "emb", "opensearch": "OS", "baselines": "bm25", "qwen": "qwen"}
    return f"{row['seconds']} (" + ", ".join(f"{short[k]} {v:.0f}" for k, v in row["steps"].items()) + ")"


def print_table(result: dict[str, Any]) -> None:
    print(
        "| set | measure (questions) | docshelf embedded | docshelf OpenSearch | rank-bm25 regex | stemmed BM25 "
        "| gain over stemmed | \\|emb − OS\\| | seconds |\n|---|---|---|---|---|---|---|---|---|"
    )
    for row in result["sets"].values():
        if "skipped" in row:
            print(f"| {row['label']} | skipped: {row['skipped']} | | | | | | | |")
            continue
        cells = [
            row["label"], f"{row['measure']} ({row['questions']})", _cell(row, "embedded"), _cell(row, "opensearch"),
            _cell(row, "regex_bm25"), _cell(row, "stemmed_bm25"), _cell(row, "gain", percent=True),
            _cell(row, "engine_gap"), _seconds(row),
        ]  # fmt: skip
        print("| " + " | ".join(cells) + " |")
    if result["macro_gain"] is not None:
        print(f"\nmacro average gain of docshelf embedded over stemmed BM25 (../shared/ireval sets): "
              f"{result['macro_gain']:+.1%}")  # fmt: skip
    if result["max_engine_gap"] is not None:
        print(f"max |embedded − OpenSearch| over the sets: {result['max_engine_gap']:.4f}")
    print(f"total: {result['seconds']} s")


def opensearch_engine(url: str, prefix: str) -> Engine | None:
    """The OpenSearch engine, or None when no node answers at `url`."""
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            response.read()
    except OSError:
        return None
    return Engine("opensearch", ("--backend", "opensearch", "--opensearch-url", url, "--opensearch-index", prefix))


def drop_indices(url: str, prefix: str) -> None:
    """Delete the bench's OpenSearch indices (`prefix.quality-SET.vN`), and only those."""
    pattern = f"{prefix}.{NAMESPACE}-*"
    with urllib.request.urlopen(f"{url}/_cat/indices/{pattern}?format=json", timeout=10) as response:
        names = [index["index"] for index in json.load(response)]
    for name in names:
        urllib.request.urlopen(urllib.request.Request(f"{url}/{name}", method="DELETE"), timeout=30).close()


def write_expected(result: dict[str, Any]) -> None:
    expected = {
        "update_with": "python -m bench.quality_bench --guard --write-expected",
        "tolerance": GUARD_TOLERANCE,
        "sets": {
            key: {name: round(row[name], 4) for name in ("embedded", "regex_bm25", "stemmed_bm25")}
            for key, row in result["sets"].items()
        },
    }
    EXPECTED.write_text(json.dumps(expected, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {EXPECTED.relative_to(REPO)}")


def guard() -> dict[str, Any]:
    """The CI subset on the embedded engine (tests/functional/test_quality_guard.py)."""
    return measure(GUARD_SETS, [Engine("embedded")], answers_too=False)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ",".join(SETS))
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated: embedded,opensearch")
    parser.add_argument("--opensearch-url", default=OPENSEARCH_URL)
    parser.add_argument("--opensearch-index", default=OPENSEARCH_PREFIX, help="index prefix (dropped at the end)")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    parser.add_argument("--chart", type=Path, help="also draw the per-set scores as an SVG bar chart")
    parser.add_argument("--answers-chart", type=Path, help="also draw Ans@Nw per QA set as an SVG bar chart")
    parser.add_argument("--guard", action="store_true", help="the CI subset, embedded engine only")
    parser.add_argument("--write-expected", action="store_true", help=f"with --guard: record {EXPECTED.name}")
    arguments = parser.parse_args(argv)
    unknown = set(arguments.sets.split(",")) - set(SETS) | set(arguments.engines.split(",")) - set(ENGINES)
    if unknown:
        parser.error(f"unknown sets or engines: {', '.join(sorted(unknown))}")
    return arguments


def write_charts(result: dict[str, Any], scores: Path | None, answers: Path | None) -> None:
    """The per-set scores and, when a QA set's answers were measured, Ans@Nw as SVG bar charts (bench/charts.py)."""
    if scores:
        charts.write(quality_charts.scores_chart(result), scores)
    if answers:
        if any(row.get("answers") for row in result["sets"].values()):
            charts.write(quality_charts.answers_chart(result), answers)
        else:
            print(f"{answers} not written: no QA set with answers was measured")


def main(argv: list[str] | None = None) -> None:
    arguments = parse_arguments(argv)
    if not EVALUATE.is_file():
        print(f"skipped: {EVALUATE} is absent")
        return
    if arguments.guard:
        result = guard()
    else:
        engines = [Engine("embedded")] if "embedded" in arguments.engines.split(",") else []
        opensearch = opensearch_engine(arguments.opensearch_url, arguments.opensearch_index)
        if "opensearch" in arguments.engines.split(","):
            if opensearch is None:
                print(f"docshelf OpenSearch skipped: no node answers at {arguments.opensearch_url}")
            else:
                engines.append(opensearch)
        try:
            result = measure(dict.fromkeys(arguments.sets.split(",")), engines)
        finally:
            if opensearch is not None and opensearch in engines:
                drop_indices(arguments.opensearch_url, arguments.opensearch_index)
    print_table(result)
    print_answers(result)
    if arguments.json:
        arguments.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_charts(result, arguments.chart, arguments.answers_chart)
    if arguments.guard and arguments.write_expected:
        write_expected(result)


if __name__ == "__main__":
    main()
