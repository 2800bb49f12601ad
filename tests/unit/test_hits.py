"""Hit statistics and the bounded boost (search/hits.py, search/hits_local.py)."""

from __future__ import annotations

import math
import multiprocessing
import threading
from pathlib import Path

import pytest

from docshelf.search.hits import DAY_S, LANDMARK, HitPrior, boosted, candidates, decayed, evidence_hits, forward_weight
from docshelf.search.hits_local import SqliteHits
from docshelf.search.ranking import RANKING

PRIOR = HitPrior(weight=0.002, cap=0.006)


def test_the_boost_is_log_damped_and_capped() -> None:
    assert PRIOR.boost(0) == 0.0
    assert PRIOR.boost(1) == pytest.approx(0.002 * math.log(2))
    assert PRIOR.boost(10) < 10 * PRIOR.boost(1)
    assert PRIOR.boost(1e9) == PRIOR.cap == RANKING.hit_prior().cap


def test_hits_halve_every_thirty_days() -> None:
    now = LANDMARK + 400 * DAY_S
    fresh = forward_weight(1, now)
    old = forward_weight(1, now - 60 * DAY_S)
    assert decayed(fresh, now) == pytest.approx(1.0)
    assert decayed(old, now) == pytest.approx(0.25)
    assert decayed(fresh + old, now + 30 * DAY_S) == pytest.approx(0.625)


def test_only_chunks_the_evidence_cites_are_hits() -> None:
    results: list[dict[str, object]] = [{"document_id": "d1", "chunk_id": "c1", "evidence_ref": 1},
               {"document_id": "d1", "chunk_id": "c2", "evidence_ref": None},
               {"document_id": "d2", "chunk_id": "c3", "evidence_ref": 2}]  # fmt: skip
    assert evidence_hits(results) == [("d1", "c1"), ("d2", "c3")]


def test_only_content_ranked_chunks_are_boosted() -> None:
    fused = [("a", 0.0330, {"content": 0}), ("b", 0.0320, {"content": 1}), ("c", 0.0310, {"path": 0})]
    ranked = boosted(fused, {"b": 100.0, "c": 1e6}, PRIOR)
    assert [chunk_id for chunk_id, _, _ in ranked] == ["b", "a", "c"]
    assert ranked[2][1] == 0.0310  # no term of the query in its text: nothing, however often it was returned
    assert boosted(fused, {}, PRIOR) == fused
    content = {"a": 10.0, "b": 6.5, "d": 5.0}
    assert candidates(fused, 3, content, 0.6) == ["a", "b"] and candidates(fused, 1, content, 0.6) == ["a"]
    assert candidates(fused, 3, content, 0.7) == ["a"]


def test_counts_per_namespace_chunk_and_document(tmp_path: Path) -> None:
    hits = SqliteHits(tmp_path / "hits.sqlite", clock=lambda: LANDMARK + 10 * DAY_S)
    hits.record("ns", [("d1", "c1"), ("d1", "c2")])
    hits.record("ns", [("d1", "c1")])
    hits.record("other", [("d9", "c1")])
    assert hits.hits("ns", "d1", "c1") == 2 and hits.hits("ns", "d1") == 3 and hits.hits("other", "d9") == 1
    assert hits.chunk_hits("ns", ["c1", "c2", "c3"]) == pytest.approx({"c1": 2.0, "c2": 1.0})
    ((document, count, weight),) = hits.top_documents("ns", 5)
    assert (document, count) == ("d1", 3) and weight == pytest.approx(3.0)
    assert SqliteHits(tmp_path / "none.sqlite").chunk_hits("ns", ["c1"]) == {}


def _record_many(path: str, rounds: int) -> None:
    hits = SqliteHits(path)
    for _ in range(rounds):
        hits.record("ns", [("d1", "c1"), ("d2", "c2")])


def _record_with(hits: SqliteHits, rounds: int) -> None:
    for _ in range(rounds):
        hits.record("ns", [("d1", "c1")])


def test_concurrent_searches_lose_no_hit(tmp_path: Path) -> None:
    path = str(tmp_path / "hits.sqlite")
    shared = SqliteHits(path)
    threads = [threading.Thread(target=_record_with, args=(shared, 50)) for _ in range(4)]
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_record_many, args=(path, 50)) for _ in range(2)]
    for process in processes:
        process.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for process in processes:
        process.join()
    assert all(process.exitcode == 0 for process in processes)
    assert shared.hits("ns", "d1", "c1") == 4 * 50 + 2 * 50
    assert shared.hits("ns", "d2", "c2") == 2 * 50 and shared.hits("ns", "d1") == 300
