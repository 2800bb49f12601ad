"""Query and document translation for OpenSearch: no query syntax, capped clauses, lossless hydration."""

from __future__ import annotations

import json

from docshelf.index.embedded import channel_terms
from docshelf.index.opensearch_queries import (
    MAX_QUERY_TERMS,
    channel_query,
    chunk_from_source,
    chunk_source,
    filter_clause,
    joined_terms,
    weighted_terms,
)
from docshelf.model import Chunk, Link
from docshelf.search.filters import SearchFilters

CHUNK = Chunk(
    chunk_id="c1", document_id="d1", namespace="ns", type="table", text="Torque the TX-100 bolts: 80 Nm.",
    section_path=("Specs", "Bolts"), pages=(2, 3), token_count=11, ordinal=4, source_file_name="manual.pdf",
    revision="r9", connect_to=(Link("assets/t.html", "table", "t1", 0),), overlap_chars=5,
)  # fmt: skip


def test_source_holds_the_analyzer_terms_and_hydrates_losslessly() -> None:
    terms = channel_terms(CHUNK)
    source = chunk_source(CHUNK, "r9", terms)
    assert source["content_terms"].split(" ") == terms["content"]
    assert source["path_terms"].split(" ") == terms["path"]
    assert source["term_grams"].split(" ") == terms["term"]
    assert "tx-100" in source["content_terms"].split(" ")
    assert chunk_from_source(json.loads(json.dumps(source))) == CHUNK


def test_terms_the_whitespace_tokenizer_would_cut_are_left_out() -> None:
    assert joined_terms(["short", "x" * 256, "y" * 255]) == "short " + "y" * 255
    assert weighted_terms(["a" * 300]) == []


def test_repeated_terms_become_boosts_and_distinct_terms_are_capped() -> None:
    assert weighted_terms(["seal", "pump", "seal"]) == [("seal", 2), ("pump", 1)]
    many = [f"t{i}" for i in range(MAX_QUERY_TERMS + 200)]
    assert len(weighted_terms(many)) == MAX_QUERY_TERMS


def test_channel_query_is_made_of_term_queries_only() -> None:
    hostile = ['title:"x"', "a OR b", "*", "field:(y)"]
    body = channel_query("ns", "content", hostile, SearchFilters(), 7)
    assert body["size"] == 7
    should = body["query"]["bool"]["must"][0]["bool"]["should"]
    assert [clause["term"]["content_terms"]["value"] for clause in should] == hostile
    assert "query_string" not in json.dumps(body) and "simple_query_string" not in json.dumps(body)
    assert body["query"]["bool"]["must"][0]["bool"]["minimum_should_match"] == 1
    assert body["sort"] == [{"_score": "desc"}, {"chunk_id": "asc"}]


def test_filters_mirror_search_filters() -> None:
    assert filter_clause("ns", SearchFilters()) == {"bool": {"filter": [{"term": {"namespace": "ns"}}]}}
    clause = filter_clause(
        "ns",
        SearchFilters(
            documents=("d2", "a.pdf"), exclude_documents=("b.pdf",), exclude_sections=("Intro",), chunk_types=("table",)
        ),
    )["bool"]
    assert clause["filter"] == [
        {"term": {"namespace": "ns"}},
        {
            "bool": {
                "should": [
                    {"terms": {"document_id": ["a.pdf", "d2"]}},
                    {"terms": {"source_file_name": ["a.pdf", "d2"]}},
                ],
                "minimum_should_match": 1,
            }
        },
        {"terms": {"chunk_type": ["table"]}},
    ]
    assert clause["must_not"] == [
        {"terms": {"document_id": ["b.pdf"]}},
        {"terms": {"source_file_name": ["b.pdf"]}},
        {"terms": {"section_path": ["Intro"]}},
    ]
