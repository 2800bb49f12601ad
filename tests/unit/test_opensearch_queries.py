"""Query and document translation for OpenSearch: no query syntax, capped clauses, lossless hydration."""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from docshelf.index.analyzer import channel_terms
from docshelf.index.bm25_math import MIN_IDF
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.opensearch.queries import (
    MAX_QUERY_TERMS,
    bm25_idf,
    channel_query,
    chunk_from_source,
    chunk_source,
    common_terms,
    content_frequencies,
    document_frequencies,
    document_frequency_query,
    feedback_query,
    filter_clause,
    hydrated_chunks,
    hydration_query,
    joined_terms,
    total_hits,
    total_query,
    weighted_terms,
)
from docshelf.index.plan import ChannelQuery, ExpansionPlan, QueryPlan, SearchFilters
from docshelf.model import Chunk, Link
from docshelf.store import LocalStore

HALF = ExpansionPlan({}, {})  # the search's rule: common in more than half of the chunks

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
    body = channel_query("ns", "content", ChannelQuery(dict.fromkeys(hostile, 1.0)), SearchFilters(), 7)
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


def test_feedback_hits_give_each_chunk_its_content_term_frequencies() -> None:
    query = feedback_query("ns", ChannelQuery({"seal": 1.0}), SearchFilters(), 15)
    assert query["size"] == 15 and query["_source"] == ["content_terms"]
    assert query["sort"] == channel_query("ns", "content", ChannelQuery({"seal": 1.0}), SearchFilters(), 15)["sort"]
    terms = channel_terms(CHUNK)["content"]
    source = chunk_source(CHUNK, "r9", channel_terms(CHUNK))
    response = {
        "hits": {
            "hits": [
                {"_source": {"content_terms": source["content_terms"]}, "sort": [2.5, "c1"]},
                {"_source": {"content_terms": ""}, "sort": [1.0, "c2"]},
                {"_source": {}, "sort": [0.5, "c3"]},
            ]
        }
    }
    assert content_frequencies(response) == {"c1": dict(Counter(terms)), "c2": {}, "c3": {}}


def test_common_terms_are_those_in_more_than_half_of_the_namespace() -> None:
    terms = ["the", "seal", "pump"]
    query = document_frequency_query("ns", terms)
    assert query["query"] == {"bool": {"filter": [{"term": {"namespace": "ns"}}]}}
    assert query["track_total_hits"] is True and query["size"] == 0
    assert query["aggs"]["frequencies"]["filters"]["filters"]["1"] == {"term": {"content_terms": "seal"}}

    def response(chunks: int, counts: list[int]) -> dict[str, Any]:
        buckets = {str(i): {"doc_count": count} for i, count in enumerate(counts)}
        return {"hits": {"total": {"value": chunks}}, "aggregations": {"frequencies": {"buckets": buckets}}}

    assert common_terms(response(10, [6, 5, 0]), terms, HALF.is_common) == {"the"}  # 5 of 10 is half, not more
    assert common_terms(response(11, [6, 5, 11]), terms, HALF.is_common) == {"the", "pump"}
    assert total_hits(response(11, [])) == 11


def test_bm25_idf_from_document_frequencies_matches_the_embedded_index(tmp_path: Path) -> None:
    texts = ["the pump seal", "the pump", "the valve", "the gasket", "the bolt"]
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [dataclasses.replace(CHUNK, chunk_id=f"c{i}", text=t) for i, t in enumerate(texts)])
    terms = ["seal", "pump", "valv", "absent"]
    buckets = {str(i): {"doc_count": count} for i, count in enumerate([1, 2, 1, 0])}
    response = {"hits": {"total": {"value": 5}}, "aggregations": {"frequencies": {"buckets": buckets}}}
    plan = QueryPlan({"content": ChannelQuery(dict.fromkeys(terms, 1.0))}, SearchFilters(), 10)
    assert bm25_idf(response, terms) == pytest.approx(index.first_pass("ns", plan).content_idf)
    assert bm25_idf(response, terms)["seal"] == pytest.approx(math.log(4.5 / 1.5))
    common = {"hits": {"total": {"value": 5}}, "aggregations": {"frequencies": {"buckets": {"0": {"doc_count": 5}}}}}
    assert bm25_idf(common, ["the"]) == {"the": MIN_IDF}


def test_total_and_hydration_queries_keep_to_the_namespace() -> None:
    filters = SearchFilters(chunk_types=("table",))
    total = total_query("ns", filters)
    assert total["track_total_hits"] is True and total["size"] == 0
    assert total["query"]["bool"]["filter"] == [filter_clause("ns", filters)]
    hydration = hydration_query("ns", ["c1", "c2"])
    assert hydration["size"] == 2
    assert hydration["query"]["bool"]["filter"] == [
        {"term": {"namespace": "ns"}},
        {"ids": {"values": ["ns/c1", "ns/c2"]}},
    ]
    source = json.loads(json.dumps(chunk_source(CHUNK, "r9", channel_terms(CHUNK))))
    hydrated = hydrated_chunks({"hits": {"hits": [{"_source": {k: source[k] for k in hydration["_source"]}}]}})
    assert hydrated == {"c1": CHUNK}


def test_frequencies_of_a_namespace_without_an_index_are_zero() -> None:
    """A search on a namespace whose index does not exist yet is answered without aggregations."""
    missing = {"hits": {"total": {"value": 0, "relation": "eq"}, "hits": []}, "status": 200}
    assert document_frequencies(missing, ["seal", "valve"]) == [0, 0]
    assert bm25_idf(missing, ["seal"]) == {"seal": 0.0}
    assert common_terms(missing, ["seal"], HALF.is_common) == set()
    found = {**missing, "aggregations": {"frequencies": {"buckets": {"0": {"doc_count": 3}, "1": {"doc_count": 0}}}}}
    assert document_frequencies(found, ["seal", "valve"]) == [3, 0]
