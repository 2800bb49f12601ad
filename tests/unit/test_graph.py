"""The document graph (docshelf/graph/): keywords weighted across the namespace, the overlap rule, the cap."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.graph import MAX_EDGES_PER_NODE, document_graph, overlap_score
from docshelf.graph.build import content_terms, section_node_id
from docshelf.graph.edges import keyword_edges
from docshelf.graph.keywords import CANDIDATES_PER_CHUNK, heaviest_terms
from docshelf.index.bm25_math import okapi_idf
from docshelf.model import Chunk
from tests.functional.test_caches_and_artifacts import _validator


def chunk(i: int, text: str, section: tuple[str, ...] = ("Manual",)) -> Chunk:
    return Chunk(
        chunk_id=f"c{i}", document_id="d", namespace="ns", type="text", text=text, section_path=section,
        pages=(1,), token_count=len(text.split()), ordinal=i, source_file_name="manual.md", revision="r",
    )  # fmt: skip


def graph_of(chunks: list[Chunk], holding: dict[str, int] | None = None, namespace_chunks: int = 0) -> dict[str, Any]:
    frequencies = content_terms(chunks)
    return document_graph(
        "d", "r", chunks, frequencies, namespace_chunks=namespace_chunks or len(chunks), namespace_holding=holding or {}
    )


def test_overlap_is_shared_keywords_over_the_smaller_set() -> None:
    assert overlap_score(["a", "b", "c"], ["a", "b", "c", "d", "e"]) == 1.0
    assert overlap_score(["a", "b", "c", "d", "e"], ["a", "b", "c", "d", "x"]) == 0.8
    assert overlap_score([], ["a"]) == 0.0


def test_edges_need_three_shared_keywords_and_an_overlap_of_0_8() -> None:
    keywords = [["a", "b", "c", "d", "e"], ["a", "b", "c", "d", "x"], ["a", "b", "c", "y", "z"], ["a", "b"], ["a", "b"]]
    edges = keyword_edges(keywords, lambda i, j: False)
    assert [(e.source, e.target, e.shared, e.score) for e in edges] == [(0, 1, ("a", "b", "c", "d"), 0.8)]
    # 3 of 5 (0.6) is too little overlap; two shared keywords are too few even at overlap 1.0.


def test_a_node_keeps_at_most_its_cap_of_edges_the_strongest_first() -> None:
    keywords = [["k1", "k2", "k3", "k4", "k5"]] + [["k1", "k2", "k3", "k4", f"x{i}"] for i in range(40)]
    keywords.append(["k1", "k2", "k3", "k4", "k5"])  # the hub's one perfect match
    edges = keyword_edges(keywords, lambda i, j: False)
    degree = Counter(node for edge in edges for node in (edge.source, edge.target))
    assert max(degree.values()) == MAX_EDGES_PER_NODE
    assert (0, 41) in {(e.source, e.target) for e in edges}  # score 1.0 is kept before the 0.8 ones


def test_keywords_common_across_the_namespace_weigh_less() -> None:
    frequencies = [Counter({"valve": 3, "torque": 1}), Counter({"valve": 1, "gasket": 1}), Counter({"seal": 1})]
    rare = heaviest_terms(frequencies, 1000, {"valve": 2, "torque": 500})
    assert [term for term, _ in rare[0]] == ["valve", "torque"]
    common = heaviest_terms(frequencies, 1000, {"valve": 900, "torque": 2})
    assert [term for term, _ in common[0]] == ["torque", "valve"]


SPEC = "torque wrench bolt flange nut thread spanner calibration"


def test_a_document_graph_joins_chunks_of_different_sections_that_share_their_keywords() -> None:
    chunks = [
        chunk(0, f"Tighten with the {SPEC} as shown.", ("Assembly",)),
        chunk(1, "The pump impeller turns inside the casing.", ("Assembly",)),
        chunk(2, f"Table of {SPEC} values.", ("Appendix", "Tables")),
        chunk(3, "Read the safety notes before starting.", ("Safety",)),
    ]
    spec = {term for word in SPEC.split() for term in content_terms([chunk(0, word)])[0]}
    # A namespace of 1,000 chunks where the manual's plain words are everywhere and the spec words rare.
    holding = {term: 3 if term in spec else 800 for counts in content_terms(chunks) for term in counts}
    graph = graph_of(chunks, holding, 1000)
    _validator("graph.schema.json").validate(graph)
    joined = {frozenset((edge["source"], edge["target"])) for edge in graph["edges"]}
    assert frozenset(("c0", "c2")) in joined
    assert all("c3" not in pair for pair in joined)
    ids = {node["id"]: node for node in graph["nodes"]}
    assert ids[section_node_id(("Appendix", "Tables"))]["kind"] == "section"
    assert graph["rule"]["min_shared"] == 3 and graph["rule"]["min_overlap"] == 0.8


def test_a_section_is_never_joined_to_its_own_chunks() -> None:
    chunks = [chunk(0, SPEC, ("A",)), chunk(1, SPEC + " extra words here", ("A", "B")), chunk(2, "other", ("C",))]
    graph = graph_of(chunks)
    a, b = section_node_id(("A",)), section_node_id(("A", "B"))
    pairs = {frozenset((edge["source"], edge["target"])) for edge in graph["edges"]}
    assert not pairs & {frozenset((a, "c0")), frozenset((a, "c1")), frozenset((b, "c1")), frozenset((a, b))}


def test_a_graph_is_the_same_for_the_same_chunks() -> None:
    chunks = [chunk(i, f"{SPEC} item {i % 3}", (f"S{i % 4}",)) for i in range(30)]
    assert graph_of(chunks) == graph_of(list(chunks))


def test_ten_thousand_chunks_stay_bounded() -> None:
    words = [f"w{i}" for i in range(300)]
    chunks = [chunk(i, " ".join(words[(i * 7 + k) % 300] for k in range(12)), (f"S{i % 50}",)) for i in range(10_000)]
    graph = graph_of(chunks)
    degree = Counter(node for edge in graph["edges"] for node in (edge["source"], edge["target"]))
    assert len(graph["nodes"]) == 10_050 and max(degree.values(), default=0) <= MAX_EDGES_PER_NODE
    assert len(graph["edges"]) <= MAX_EDGES_PER_NODE * len(graph["nodes"]) // 2


def test_an_empty_document_has_an_empty_graph() -> None:
    graph = graph_of([])
    assert graph["nodes"] == [] and graph["edges"] == []
    with pytest.raises(jsonschema.ValidationError):
        _validator("graph.schema.json").validate({**graph, "rule": {}})


def _heaviest_by_definition(
    frequencies: list[Counter[str]], namespace_chunks: int, holding: dict[str, int]
) -> list[list[tuple[str, float]]]:
    """The module's rule written plainly: (1 + log tf) x namespace idf x log(1 + M / m), single characters left out,
    the heaviest first (a tie: the later term first)."""
    chunks = len(frequencies)
    in_document = Counter(term for counts in frequencies for term in counts)
    found = []
    for counts in frequencies:
        weights = []
        for term, tf in counts.items():
            if len(term) < 2:
                continue
            idf = okapi_idf(max(namespace_chunks, chunks), max(holding.get(term, 0), in_document[term]))
            weights.append(((1.0 + math.log(tf)) * (idf * math.log(1.0 + chunks / in_document[term])), term))
        found.append([(term, weight) for weight, term in sorted(weights, reverse=True)[:CANDIDATES_PER_CHUNK]])
    return found


# More terms than a chunk's CANDIDATES_PER_CHUNK, and weights that tie (the same tf and holding).
_TERMS = st.sampled_from(
    [
        "valve",
        "seal",
        "torque",
        "bolt",
        "a",
        "x",
        "nut",
        "保修",
        "gasket",
        "flange",
        "pump",
        *(f"t{i:02d}" for i in range(30)),
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.dictionaries(_TERMS, st.integers(1, 3), min_size=1, max_size=30), min_size=1, max_size=6),
    st.dictionaries(_TERMS, st.integers(0, 900)),
    st.integers(0, 1000),
)
def test_heaviest_terms_are_those_of_the_definition(
    frequencies: list[dict[str, int]], holding: dict[str, int], namespace_chunks: int
) -> None:
    counted = [Counter(counts) for counts in frequencies]
    holding = {term: min(held, namespace_chunks) for term, held in holding.items()}  # no more than the namespace has
    expected = _heaviest_by_definition(counted, namespace_chunks, holding)
    assert heaviest_terms(counted, namespace_chunks, holding) == [
        [(term, weight) for term, weight in chunk_terms if weight > 0] for chunk_terms in expected
    ]
