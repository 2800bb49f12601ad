"""The side-by-side charts of the quality bench and the evidence study, built from their measured rows.

The rows have the shape the benches write with `--json` (bench/quality_bench.py, bench/evidence_study.py), so a
chart comes the same from a fresh run (`--chart PATH`) and from figures transcribed from the docs
(bench/charts_from_tables.py).
"""

from __future__ import annotations

from typing import Any

from bench.charts import BarChart, Series

QWEN_AGENT = "Qwen-Agent 0.0.34"
WORDS = (500, 1000, 2000)
# (row key, legend) of the per-set scores; Qwen-Agent's MRR@10 comes from the row's answers when it ran.
SCORE_SERIES = (
    ("embedded", "docshelf embedded"),
    ("opensearch", "docshelf OpenSearch"),
    ("regex_bm25", "rank-bm25 regex"),
    ("stemmed_bm25", "stemmed BM25 (Qwen-Agent's keyword search stand-in)"),
)
# (answers key, legend) of the answer-in-the-evidence chart.
ANSWER_SERIES = (
    ("embedded results", "docshelf, results read in order"),
    ("embedded evidence", "docshelf, evidence_text"),
    ("rank-bm25", "rank-bm25 (docshelf's chunks)"),
    (QWEN_AGENT, QWEN_AGENT),
)

# (report key, legend) of the evidence study's chart; the --grid settings stay in its JSON.
EVIDENCE_SERIES = (
    ("result_level", "results read in order"),
    ("default", "evidence, passages (default)"),
    ("whole", "evidence, whole chunks (before)"),
)


def _value(mapping: dict[str, Any], key: str) -> float | None:
    value = mapping.get(key)
    return float(value) if isinstance(value, int | float) else None


def scores_chart(result: dict[str, Any], minimum: float = 0.3) -> BarChart:
    """Every measured set's score (nDCG@10 or MRR@10) per system, Qwen-Agent's MRR@10 where it ran."""
    rows = [row for row in result["sets"].values() if "skipped" not in row]
    groups = tuple(f"{row['label']} ({row['measure']})" for row in rows)
    series = [
        Series(name, tuple(_value(row, key) for row in rows))
        for key, name in SCORE_SERIES
        if any(key in row for row in rows)
    ]
    qwen = tuple(_value(row.get("answers", {}).get(QWEN_AGENT, {}), "MRR@10") for row in rows)
    if any(value is not None for value in qwen):
        series.append(Series(f"{QWEN_AGENT} (MRR@10)", qwen))
    return BarChart(
        "Retrieval quality per set (bench/quality_bench.py)",
        groups,
        tuple(series),
        minimum=minimum,
        maximum=1.0,
        note=f"nDCG@10 on MEDLINE, CACM and NPL, MRR@10 on the QA sets; the axis starts at {minimum}.",
    )


def answers_chart(result: dict[str, Any], minimum: float = 0.5) -> BarChart:
    """Ans@Nw per QA set and budget: is an answer in the first N words of what each system hands an LLM."""
    rows = [row for row in result["sets"].values() if row.get("answers")]
    if not rows:
        raise ValueError("no set has answer-level figures (run the QA sets with their answers)")
    groups = tuple(f"{row['label']}, {words} words" for row in rows for words in WORDS)
    series = tuple(
        Series(name, tuple(_value(row["answers"].get(key, {}), f"Ans@{words}w") for row in rows for words in WORDS))
        for key, name in ANSWER_SERIES
    )
    return BarChart(
        "Answer in the first N words (Ans@Nw, bench/quality_bench.py)",
        groups,
        series,
        minimum=minimum,
        maximum=1.0,
        note=f"results: the chunks read in order; evidence_text at 667 / 1,333 / 2,667 tokens; axis from {minimum}.",
    )


def evidence_study_chart(report: dict[str, Any], minimum: float = 0.5) -> BarChart:
    """bench/evidence_study.py's report: results read in order, passages packed (the default) and whole chunks."""
    sets = report["sets"]
    first = next(iter(sets.values()))
    configs = [(key, name) for key, name in EVIDENCE_SERIES if key in first]
    groups = tuple(f"{name}, {words} words" for name in sets for words in WORDS)
    series = [
        Series(name, tuple(_value(sets[n][key], f"Ans@{w}w") for n in sets for w in WORDS)) for key, name in configs
    ]
    return BarChart(
        "Answer in the evidence: packing settings (bench/evidence_study.py)",
        groups,
        tuple(series),
        minimum=minimum,
        maximum=1.0,
        note=f"Ans@Nw of the evidence searched at 667 / 1,333 / 2,667 tokens; the axis starts at {minimum}.",
    )
