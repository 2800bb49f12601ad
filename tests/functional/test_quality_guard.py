"""The quality bench's CI subset (bench/quality_bench.py --guard) against the scores recorded in
bench/quality_expected.json: a ranking or chunking change that moves a score fails here until the numbers are
re-recorded on purpose with `python -m bench.quality_bench --guard --write-expected`."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from bench import quality_bench
from bench.quality_baselines import Bm25Scorer, regex_tokens, stemmed_tokens
from tests.conftest import SHARED

SCORES = ("embedded", "regex_bm25", "stemmed_bm25")


@pytest.fixture(scope="module")
def guard_result() -> dict[str, Any]:
    if not (SHARED / "ireval").is_dir() or not quality_bench.EVALUATE.is_file():
        pytest.skip("../shared/ireval is absent (only present in the project workspace and CI)")
    return quality_bench.guard()


def test_the_stemmed_baseline_drops_stop_words_stems_and_cuts_cjk_into_bigrams() -> None:
    assert stemmed_tokens("The pumps were running, and 新员工年假") == ["pump", "run", "新员", "员工", "工年", "年假"]
    assert regex_tokens("The pumps were running") == ["the", "pumps", "were", "running"]


def test_the_postings_scorer_gives_rank_bm25s_scores() -> None:
    texts = ["seal replacement interval", "seal seal torque", "torque for flange bolts", "员工年假", "nothing"]
    scorer = Bm25Scorer([stemmed_tokens(text) for text in texts])
    for query in ("seal seal torque", "flange bolt intervals", "员工", "absent words"):
        tokens = stemmed_tokens(query)
        assert np.allclose(scorer.scores(tokens), scorer.bm25.get_scores(tokens))


@pytest.mark.corpus
@pytest.mark.slow
def test_every_guard_score_is_the_recorded_one(guard_result: dict[str, Any]) -> None:
    recorded = json.loads(quality_bench.EXPECTED.read_text(encoding="utf-8"))
    expected, tolerance = recorded["sets"], recorded["tolerance"]
    assert set(guard_result["sets"]) == set(expected) == set(quality_bench.GUARD_SETS)
    measured = {key: {name: round(row[name], 4) for name in SCORES} for key, row in guard_result["sets"].items()}
    moved = {
        f"{key} {name}": (expected[key][name], measured[key][name])
        for key in expected
        for name in SCORES
        if abs(measured[key][name] - expected[key][name]) > tolerance
    }
    assert moved == {}, "re-record with: python -m bench.quality_bench --guard --write-expected"


@pytest.mark.corpus
@pytest.mark.slow
def test_docshelf_beats_the_stemmed_baseline_where_it_did_when_recorded(guard_result: dict[str, Any]) -> None:
    expected = json.loads(quality_bench.EXPECTED.read_text(encoding="utf-8"))["sets"]
    ahead = [key for key, scores in expected.items() if scores["embedded"] > scores["stemmed_bm25"]]
    assert ahead, "the recorded guard has docshelf ahead of the stemmed baseline on no set"
    behind = [
        key for key in ahead if guard_result["sets"][key]["embedded"] <= guard_result["sets"][key]["stemmed_bm25"]
    ]
    assert behind == []
