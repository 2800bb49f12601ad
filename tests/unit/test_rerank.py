"""The reranking stage (search/rerank.py): Bedrock's Rerank API through a botocore Stubber, and its place in search."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import boto3
from botocore.stub import ANY, Stubber

from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.search.request import SearchRequest
from docshelf.search.rerank import BedrockReranker, reranked
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens

MODEL = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"


def chunk(i: int, text: str) -> Chunk:
    return Chunk(
        chunk_id=f"c{i}", document_id="d1", namespace="ns", type="text", text=text, section_path=("Pump",),
        pages=(1,), token_count=count_tokens(text), ordinal=i, source_file_name="pump.md",
    )  # fmt: skip


def bedrock_client() -> Any:
    return boto3.client(
        "bedrock-agent-runtime", region_name="us-west-2", aws_access_key_id="x", aws_secret_access_key="x"
    )


def test_bedrock_rerank_sends_the_query_and_texts_and_reads_scores_by_index() -> None:
    client = bedrock_client()
    with Stubber(client) as stub:
        stub.add_response(
            "rerank",
            {"results": [{"index": 1, "relevanceScore": 0.9}, {"index": 0, "relevanceScore": 0.2}]},
            {
                "queries": [{"type": "TEXT", "textQuery": {"text": "seal interval"}}],
                "sources": [
                    {"type": "INLINE", "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": "a"}}},
                    {"type": "INLINE", "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": "b"}}},
                ],
                "rerankingConfiguration": {
                    "type": "BEDROCK_RERANKING_MODEL",
                    "bedrockRerankingConfiguration": {"numberOfResults": 2, "modelConfiguration": {"modelArn": MODEL}},
                },
            },
        )
        assert BedrockReranker(client, MODEL).scores("seal interval", ["a", "b"]) == [0.2, 0.9]
        stub.assert_no_pending_responses()


def test_reranking_reorders_the_first_depth_results_and_keeps_the_rest() -> None:
    class ByLength:
        def scores(self, query: str, texts: Sequence[str]) -> list[float]:
            return [float(len(text)) for text in texts]

    items = ["bb", "a", "cccc", "ddd"]
    assert reranked("q", items, items, ByLength(), depth=3) == ["cccc", "bb", "a", "ddd"]


def test_search_with_a_bedrock_reranker_puts_its_best_first(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = [
        "The pump seal is checked for leaks.",
        "Replace the pump seal every 2000 operating hours.",
        "The pump seal kit ships in a box.",
    ] + [f"Unrelated note {i} about invoices." for i in range(10)]
    index.upsert("ns", "d1", "r", [chunk(i, text) for i, text in enumerate(texts)])
    first_stage = search(index, SearchRequest("ns", "pump seal", top_k=3)).results
    client = bedrock_client()
    with Stubber(client) as stub:
        scores = [
            {"index": at, "relevanceScore": 1.0 if "2000" in r.chunk.text else 0.1} for at, r in enumerate(first_stage)
        ]
        stub.add_response(
            "rerank", {"results": scores}, {"queries": ANY, "sources": ANY, "rerankingConfiguration": ANY}
        )
        response = search(
            index, SearchRequest("ns", "pump seal", top_k=2), reranker=BedrockReranker(client, MODEL), rerank_depth=3
        )
    assert "2000 operating hours" in response.results[0].chunk.text and len(response.results) == 2
    assert response.results[0].score >= response.results[1].score  # scores still fall down the list
    assert "Replace the pump seal every 2000 operating hours." in response.evidence_text
    assert response.to_dict()["results"][0]["evidence_ref"] is not None


def test_a_passage_model_reads_queries_the_semantic_channel_reads() -> None:
    from dataclasses import replace

    from docshelf.search.ranking import RANKING
    from docshelf.search.rerank import model_identity, reading_model

    model = BedrockReranker(boto3.client("bedrock-agent-runtime", region_name="us-east-1"), "arn:model")
    assert reading_model(model, "torque of the M12 bolt", RANKING) is model
    assert reading_model(model, "保修期是多久", RANKING) is None  # Han: the words alone, by default
    assert reading_model(model, "保修期是多久", replace(RANKING, semantic_cjk=True)) is model
    assert reading_model(None, "torque", RANKING) is None
    assert model_identity(None) == "" and model_identity(model) == "BedrockReranker"
