"""The bedrock provider against botocore's Stubber: the request bodies the Bedrock user guide documents
(model-parameters-titan-embed-text, model-parameters-embed-v3), the responses it shows, throttling and refusals."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import boto3
import numpy as np
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from docshelf.embeddings import provider_from_config
from docshelf.embeddings.base import EmbeddingError, UnknownEmbeddingModelError
from docshelf.embeddings.bedrock import BedrockProvider, foundation_model_of

TITAN = "amazon.titan-embed-text-v2:0"
COHERE = "cohere.embed-multilingual-v3"


@pytest.fixture
def client() -> Iterator[Any]:
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )
    yield client


def body(payload: dict[str, Any]) -> dict[str, Any]:
    data = json.dumps(payload).encode()
    return {"body": StreamingBody(io.BytesIO(data), len(data)), "contentType": "application/json"}


def request(model_id: str, payload: dict[str, Any]) -> dict[str, Any]:
    json_type = "application/json"
    return {"modelId": model_id, "body": json.dumps(payload), "contentType": json_type, "accept": json_type}


def unit(dimension: int, seed: int) -> list[float]:
    vector = np.random.default_rng(seed).normal(size=dimension)
    return [float(x) for x in vector / np.linalg.norm(vector)]


def test_titan_v2_one_call_a_text_with_the_documented_body(client: Any) -> None:
    provider = BedrockProvider(client, TITAN + "/256", threads=1)
    with Stubber(client) as stub:
        for seed, text in enumerate(["pump impeller wear", "seal kit"]):
            vector = unit(256, seed)
            stub.add_response(
                "invoke_model",
                body({"embedding": vector, "inputTextTokenCount": 4, "embeddingsByType": {"float": vector}}),
                request(TITAN, {"inputText": text, "dimensions": 256, "normalize": True}),
            )
        vectors = provider.embed_passages(["pump impeller wear", "seal kit"])
        stub.assert_no_pending_responses()
    assert vectors.shape == (2, 256) and vectors.dtype == np.float32
    assert np.allclose(vectors[1], unit(256, 1), atol=1e-6)
    assert provider.model.dimension == 256 and provider.model.normalized
    assert provider.model.model_id == TITAN + "/256" and foundation_model_of(provider.model.model_id) == TITAN


def test_cohere_batches_of_96_with_the_input_type_of_each_side(client: Any) -> None:
    provider = BedrockProvider(client, COHERE)
    texts = [f"passage {n}" for n in range(97)]
    with Stubber(client) as stub:
        for part in (texts[:96], texts[96:]):
            stub.add_response(
                "invoke_model",
                body(
                    {
                        "embeddings": [unit(1024, n) for n in range(len(part))],
                        "id": "6a8f-example",
                        "response_type": "embeddings_floats",
                        "texts": part,
                    }
                ),
                request(COHERE, {"texts": part, "input_type": "search_document", "truncate": "END"}),
            )
        stub.add_response(
            "invoke_model",
            body({"embeddings": [unit(1024, 7)], "id": "q", "response_type": "embeddings_floats", "texts": ["q"]}),
            request(COHERE, {"texts": ["what wears?"], "input_type": "search_query", "truncate": "END"}),
        )
        passages = provider.embed_passages(texts)
        query = provider.embed_query("what wears?")
        stub.assert_no_pending_responses()
    assert passages.shape == (97, 1024) and query.shape == (1024,)
    assert np.allclose(passages[96], unit(1024, 0), atol=1e-6)


def test_cohere_texts_are_cut_to_the_services_2048_characters(client: Any) -> None:
    provider = BedrockProvider(client, COHERE)
    with Stubber(client) as stub:
        stub.add_response(
            "invoke_model",
            body({"embeddings": [unit(1024, 1)], "id": "x", "response_type": "embeddings_floats", "texts": ["a"]}),
            request(COHERE, {"texts": ["a" * 2048], "input_type": "search_document", "truncate": "END"}),
        )
        provider.embed_passages(["a" * 5000])
        stub.assert_no_pending_responses()


def test_throttling_is_retried_with_exponential_backoff(client: Any) -> None:
    sleeps: list[float] = []
    provider = BedrockProvider(client, TITAN, sleep=sleeps.append, threads=1)
    with Stubber(client) as stub:
        stub.add_client_error("invoke_model", "ThrottlingException", "Too many requests", 429)
        stub.add_client_error("invoke_model", "ServiceUnavailableException", "Service unavailable", 503)
        stub.add_response("invoke_model", body({"embedding": unit(1024, 3), "inputTextTokenCount": 1}))
        vector = provider.embed_query("pump")
        stub.assert_no_pending_responses()
    assert sleeps == [0.5, 1.0]
    assert np.allclose(vector, unit(1024, 3), atol=1e-6)


def test_throttling_that_never_ends_gives_up_with_a_clear_error(client: Any) -> None:
    sleeps: list[float] = []
    provider = BedrockProvider(client, TITAN, sleep=sleeps.append, threads=1)
    with Stubber(client) as stub:
        for _ in range(6):
            stub.add_client_error("invoke_model", "ThrottlingException", "Rate exceeded", 429)
        with pytest.raises(EmbeddingError, match="ThrottlingException: Rate exceeded"):
            provider.embed_query("pump")
    assert sleeps == [0.5, 1.0, 2.0, 4.0, 8.0]


def test_a_refusal_is_not_retried_and_names_the_model(client: Any) -> None:
    sleeps: list[float] = []
    provider = BedrockProvider(client, COHERE, sleep=sleeps.append)
    with Stubber(client) as stub:
        message = "You don't have access to the model with the specified model ID."
        stub.add_client_error("invoke_model", "AccessDeniedException", message, 403)
        with pytest.raises(EmbeddingError, match=f"{COHERE}: AccessDeniedException: You don't have access"):
            provider.embed_passages(["x"])
        stub.assert_no_pending_responses()
    assert sleeps == []


def test_model_ids_and_the_factory(client: Any) -> None:
    assert BedrockProvider(client, TITAN).model.dimension == 1024
    for bad in (TITAN + "/300", "amazon.titan-embed-text-v1", COHERE + "/256"):
        with pytest.raises(UnknownEmbeddingModelError):
            BedrockProvider(client, bad)
    made = provider_from_config("bedrock", None, bedrock_runtime=client)
    assert made is not None and made.model.model_id == TITAN
    with pytest.raises(EmbeddingError, match="bedrock-runtime client"):
        provider_from_config("bedrock", COHERE)
    with pytest.raises(EmbeddingError, match="unknown embedding provider"):
        provider_from_config("openai", None)


class EchoRuntime:
    """A bedrock-runtime stand-in for Titan whose vector encodes the text, to check order across threads."""

    def invoke_model(self, **request: Any) -> dict[str, Any]:
        number = int(json.loads(request["body"])["inputText"].split()[-1])
        vector = [0.0] * 256
        vector[number] = 1.0
        return body({"embedding": vector, "inputTextTokenCount": 2})


def test_titan_calls_on_several_threads_keep_the_order_of_the_texts() -> None:
    provider = BedrockProvider(EchoRuntime(), TITAN + "/256", threads=4)
    vectors = provider.embed_passages([f"passage {n}" for n in range(40)])
    assert [int(row.argmax()) for row in vectors] == list(range(40))
