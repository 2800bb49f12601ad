"""The shared tenancy on a real node: namespaces packed into one shared index never see each other's chunks on any
request, one can be deleted alone, and one moves to an index of its own (and back) while it is searched."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from docshelf.errors import IndexBackendError
from docshelf.index.analyzer import analyze
from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.opensearch.tenancy import Tenancy, is_shared_index
from docshelf.index.plan import ChannelQuery, ExpansionPlan, QueryPlan, SearchFilters, SemanticQuery, term_weights
from docshelf.index.vectors import VectorModel
from docshelf.search.corrections import SPELLING_RULE
from tests.integration.test_index_contract import _opensearch_index, make_chunk, opensearch  # noqa: F401
from tests.integration.test_semantic_contract import EMBEDDER, embedded

pytestmark = pytest.mark.opensearch

ALL = SearchFilters()
ONE_SHARED = Tenancy("shared", shared_indices=1, large_chunks=0)
# "other" holds the same words (and one only it has, "zeolite") under other document ids: any leak shows.
OURS = ["pump housing and valve seal", "replace the brake pads", "the valve seat wears"]
ZEOLITE = analyze("zeolite")[0]
THEIRS = ["pump impeller and valve seal", "zeolite filter for the pump", "brake fluid every two years"]


@pytest.fixture
def shared(opensearch: Any) -> Iterator[OpenSearchIndex]:  # noqa: F811
    index = _opensearch_index(opensearch, tenancy=ONE_SHARED)
    yield index
    index.drop_index()


def _publish(index: OpenSearchIndex, namespace: str, doc: str, texts: list[str]) -> None:
    chunks = [make_chunk(i, text, doc=doc, namespace=namespace, name=f"{doc}.pdf") for i, text in enumerate(texts)]
    assert index.write(namespace, [embedded(doc, chunks)]) == {}


def _plan(words: str, filters: SearchFilters = ALL, *, semantic: bool = False) -> QueryPlan:
    terms = analyze(words)
    channels = {ch: ChannelQuery(term_weights(terms), 1) for ch in ("content", "path", "term")}
    vector = SemanticQuery(tuple(EMBEDDER.embed_query(words).tolist()), 10) if semantic else None
    return QueryPlan(channels, filters, 10, feedback=3, semantic=vector)  # type: ignore[arg-type]


def _ranked_ids(index: OpenSearchIndex, namespace: str, words: str, filters: SearchFilters = ALL) -> set[str]:
    found = index.first_pass(namespace, _plan(words, filters, semantic=True))
    return {chunk for ranking in found.rankings.values() for chunk, _ in ranking}


def _both(index: OpenSearchIndex) -> None:
    _publish(index, "ns", "a1", OURS)
    _publish(index, "other", "b1", THEIRS)


def test_both_namespaces_live_in_one_shared_index_behind_filtered_routed_aliases(shared: OpenSearchIndex) -> None:
    _both(shared)
    placed = {shared.placement("ns"), shared.placement("other")}
    assert len(placed) == 1 and is_shared_index(shared.index, placed.pop() or "")
    aliases = shared.client.indices.get_alias(name=shared.alias("ns"))
    (alias,) = next(iter(aliases.values()))["aliases"].values()
    assert alias["filter"] == {"term": {"namespace": "ns"}} and alias["index_routing"] == "ns"


def test_a_namespace_sees_only_its_own_chunks_on_every_request(shared: OpenSearchIndex) -> None:
    _both(shared)
    ours = {f"a1-c{i}" for i in range(3)}
    first = shared.first_pass("ns", _plan("pump valve seal brake zeolite", semantic=True))
    assert first.total == 3
    assert set(first.rankings["semantic"]) and {c for c, _ in first.rankings["semantic"]} <= ours  # k-NN
    for channel in ("content", "path", "term"):
        assert {c for c, _ in first.rankings[channel]} <= ours, channel
    assert set(first.content_frequencies) <= ours and first.content_idf[ZEOLITE] == 0.0  # only "other" holds it
    plan = ExpansionPlan({"pump": 1.0}, {ZEOLITE: 1.0, "seal": 1.0}, ALL, 10, fetch=("a1-c0", "b1-c1"))
    expanded = shared.expansion_pass("ns", plan)
    assert {c for c, _ in expanded.ranking} <= ours and set(expanded.chunks) == {"a1-c0"}
    assert shared.count("ns", ALL) == 3 and shared.count("other", ALL) == 3
    assert {c.chunk_id for c in shared.list_chunks("ns", ALL, 100)} == ours
    assert shared.fetch("ns", ["b1-c0", "b1-c1"]) == []
    assert shared.document_frequencies("ns", [ZEOLITE, "pump"]) == (3, {"pump": 1})
    assert shared.similar_terms("ns", ["zeolyt"], SPELLING_RULE) == {}  # only "other" holds zeolite
    assert shared.similar_terms("other", ["zeolyt"], SPELLING_RULE)["zeolyt"][0] == (ZEOLITE, 1)


def test_filters_naming_another_namespaces_documents_find_nothing(shared: OpenSearchIndex) -> None:
    _both(shared)
    theirs = SearchFilters(documents=("b1", "b1.pdf"))
    assert _ranked_ids(shared, "ns", "pump valve brake", theirs) == set()
    assert shared.count("ns", theirs) == 0 and shared.list_chunks("ns", theirs, 10) == []
    ours = {f"a1-c{i}" for i in range(3)}  # the semantic channel ranks every chunk
    assert _ranked_ids(shared, "ns", "pump", SearchFilters(exclude_documents=("b1",))) == ours


def test_deleting_in_one_namespace_leaves_the_others_documents(shared: OpenSearchIndex) -> None:
    _both(shared)
    shared.delete("ns", "b1")  # "other"'s document id, asked in "ns": nothing of "other" goes
    assert shared.count("other", ALL) == 3
    shared.delete("ns", "a1")
    assert shared.count("ns", ALL) == 0 and shared.count("other", ALL) == 3
    assert _ranked_ids(shared, "other", "pump") == {"b1-c0", "b1-c1", "b1-c2"}


def test_dropping_a_namespace_leaves_the_rest_of_its_shared_index(shared: OpenSearchIndex) -> None:
    _both(shared)
    before = _ranked_ids(shared, "other", "pump valve zeolite")
    shared.drop_namespace("ns")
    assert shared.placement("ns") is None and shared.count("ns", ALL) == 0
    assert shared.count("other", ALL) == 3 and _ranked_ids(shared, "other", "pump valve zeolite") == before
    assert shared.vector_model("other") == VectorModel.of(EMBEDDER.model)
    _publish(shared, "ns", "a2", OURS[:1])  # the namespace can come back
    assert {c.chunk_id for c in shared.list_chunks("ns", ALL, 10)} == {"a2-c0"}


def _search_while(index: OpenSearchIndex, namespace: str, expected: set[str], work: Any) -> list[str]:
    """Search the namespace in a loop while `work()` runs; the differences from `expected` seen."""
    wrong: list[str] = []
    done = threading.Event()

    def search() -> None:
        reader = OpenSearchIndex(index.client, index=index.index, tenancy=index.tenancy)
        while not done.is_set():
            got = {c.chunk_id for c in reader.list_chunks(namespace, ALL, 100)}
            ranked = _ranked_ids(reader, namespace, "pump valve brake seat")
            if got != expected or not ranked <= expected or reader.count(namespace, ALL) != len(expected):
                wrong.append(f"listed {sorted(got)}, ranked {sorted(ranked)}")

    thread = threading.Thread(target=search)
    thread.start()
    try:
        work()
    finally:
        done.set()
        thread.join()
    return wrong


def test_a_namespace_moves_to_its_own_index_and_back_while_it_is_searched(shared: OpenSearchIndex) -> None:
    _both(shared)
    shared_index = shared.placement("ns")
    ours = {f"a1-c{i}" for i in range(3)}
    semantic = shared.first_pass("ns", _plan("automobile brakes", semantic=True)).rankings["semantic"]

    assert _search_while(shared, "ns", ours, lambda: shared.move_namespace("ns", shared=False)) == []
    own = shared.placement("ns")
    assert own == f"{shared.alias('ns')}.v1"
    assert shared.first_pass("ns", _plan("automobile brakes", semantic=True)).rankings["semantic"] == semantic
    assert shared.client.count(index=shared_index, body={"query": {"term": {"namespace": "ns"}}})["count"] == 0
    assert shared.count("other", ALL) == 3

    assert _search_while(shared, "ns", ours, lambda: shared.move_namespace("ns", shared=True)) == []
    assert shared.placement("ns") == shared_index and not shared.client.indices.exists(index=own)
    assert shared.vector_model("ns") == VectorModel.of(EMBEDDER.model)
    assert shared.move_namespace("ns", shared=True) is None  # already there


def test_chunks_written_to_the_old_place_during_a_move_are_moved_too(
    shared: OpenSearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both(shared)
    switch = shared._point_alias

    def publish_then_switch(namespace: str, index: str, *, away_from: str | None = None) -> None:
        if away_from is not None:  # a publish lands in the old place after the copy, before the switch
            _publish(OpenSearchIndex(shared.client, index=shared.index, tenancy=ONE_SHARED), "ns", "late", ["gauge"])
        switch(namespace, index, away_from=away_from)

    monkeypatch.setattr(shared, "_point_alias", publish_then_switch)
    shared.move_namespace("ns", shared=False)
    assert {c.chunk_id for c in shared.list_chunks("ns", ALL, 10)} == {"a1-c0", "a1-c1", "a1-c2", "late-c0"}


def test_a_namespace_past_the_large_threshold_gets_an_index_of_its_own(opensearch: Any) -> None:  # noqa: F811
    index = _opensearch_index(opensearch, tenancy=Tenancy("shared", shared_indices=2, large_chunks=3))
    try:
        _publish(index, "small", "s1", OURS)
        assert is_shared_index(index.index, index.placement("small") or "")
        _publish(index, "grows", "g1", OURS)
        _publish(index, "grows", "g2", THEIRS[:1])
        assert index.placement("grows") == f"{index.alias('grows')}.v1"
        assert index.count("grows", ALL) == 4 and index.count("small", ALL) == 3
        assert {c for c, _ in index.rank("grows", "content", ["pump"], ALL, 10)} == {"g1-c0", "g2-c0"}
    finally:
        index.drop_index()


def test_the_default_tenancy_still_gives_each_namespace_its_own_index(opensearch: Any) -> None:  # noqa: F811
    index = _opensearch_index(opensearch)
    try:
        _publish(index, "ns", "a1", OURS)
        assert index.placement("ns") == f"{index.alias('ns')}.v1"
        index.drop_namespace("ns")
        assert not index.client.indices.exists(index=f"{index.alias('ns')}.v1")
    finally:
        index.drop_index()


def test_a_move_that_fails_before_the_switch_leaves_the_namespace_where_it_was(
    shared: OpenSearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both(shared)
    before = shared.placement("ns")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise IndexBackendError("refused")

    monkeypatch.setattr(shared, "_point_alias", refuse)
    with pytest.raises(IndexBackendError, match="refused"):
        shared.move_namespace("ns", shared=False)
    assert shared.placement("ns") == before and shared.count("ns", ALL) == 3
    assert not shared.client.indices.exists(index=f"{shared.alias('ns')}.v1")  # the half-made copy is gone
