#!/usr/bin/env python3
"""The fit behind search/confidence.py: how the idf-weighted share of the query a result holds predicts that the
result holds the answer, pooled over every QA set in ../shared/ireval, with the reliability per set.

Each set's store is the evidence study's (.bench/<set>, ingested with the defaults); a seeded sample of questions
is searched with top_k 10, and every result is one example: its term share, and whether its text holds an answer
(evaluate.py's rule). A logistic over the share is fitted by Newton's method on the pooled examples, each set
weighing alike; then, per set, the mean confidence against the rate of answers among results of each confidence
band, and for the first result the rate at and above GOOD_MATCH against below it.

    python -m bench.confidence_fit [--sample 200]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from itertools import pairwise
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

from bench.evidence_study import NAMESPACE, QA_SETS, SHARED, scorer, store_of  # noqa: E402
from docshelf.index.analyzer import analyze  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.search.confidence import GOOD_MATCH, confidence, term_share  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402

BANDS = (0.0, 0.25, 0.5, 0.75, 1.01)


def examples(name: str, sample: int, ev: object) -> list[tuple[float, bool, int]]:
    """(share, holds an answer, rank) of every result of the sampled questions."""
    index = EmbeddedIndex(LocalStore(store_of(name)))
    questions = [json.loads(line) for line in (SHARED / "ireval" / name / "queries.jsonl").open(encoding="utf-8")]
    questions = random.Random(33).sample(questions, min(sample, len(questions)))
    rows = []
    for question in questions:
        patterns = [p for answer in question["answers"] for p in ev.answer_patterns(answer)]  # type: ignore[attr-defined]
        response = search(index, SearchRequest(NAMESPACE, question["query"], top_k=10))
        weights = response.term_weights
        for rank, result in enumerate(response.results):
            share = term_share(set(analyze(result.chunk.text)) & weights.keys(), weights)
            text = ev.joined(ev.match_tokens(result.chunk.text))  # type: ignore[attr-defined]
            rows.append((share, ev.contains_any(text, patterns), rank))  # type: ignore[attr-defined]
    return rows


def fit(shares: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """(slope, offset) of the weighted logistic regression of labels on shares."""
    features = np.column_stack([shares, np.ones_like(shares)])
    beta = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-features @ beta))
        gradient = features.T @ (weights * (labels - p))
        hessian = (features * (weights * p * (1 - p))[:, None]).T @ features
        step = np.linalg.solve(hessian + 1e-9 * np.eye(2), gradient)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return float(beta[0]), float(beta[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=200)
    args = parser.parse_args()
    ev = scorer()
    per_set = {name: examples(name, args.sample, ev) for name in QA_SETS}
    shares = np.array([share for rows in per_set.values() for share, _, _ in rows])
    labels = np.array([float(hit) for rows in per_set.values() for _, hit, _ in rows])
    weights = np.array([1.0 / len(rows) for rows in per_set.values() for _ in rows])
    slope, offset = fit(shares, labels, weights)
    print(f"fitted: SLOPE = {slope:.2f}, OFFSET = {offset:.2f} (in use: see search/confidence.py)")
    print("\n| set | band of confidence | results | mean confidence | share holding an answer |")
    print("|---|---|---|---|---|")
    for name, rows in per_set.items():
        for low, high in pairwise(BANDS):
            band = [(confidence(share), hit) for share, hit, _ in rows if low <= confidence(share) < high]
            if band:
                mean = sum(c for c, _ in band) / len(band)
                rate = sum(hit for _, hit in band) / len(band)
                print(f"| {name} | [{low:.2f}, {min(high, 1):.2f}) | {len(band)} | {mean:.3f} | {rate:.3f} |")
    print("\n| set | first results at or above GOOD_MATCH | their answer rate | below | their answer rate |")
    print("|---|---|---|---|---|")
    for name, rows in per_set.items():
        first = [(confidence(share) >= GOOD_MATCH, hit) for share, hit, rank in rows if rank == 0]
        good = [hit for is_good, hit in first if is_good]
        weak = [hit for is_good, hit in first if not is_good]
        print(
            f"| {name} | {len(good)} | {sum(good) / max(1, len(good)):.3f} | {len(weak)} | "
            f"{sum(weak) / max(1, len(weak)):.3f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
