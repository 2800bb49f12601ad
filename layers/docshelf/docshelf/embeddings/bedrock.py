"""The `bedrock` provider: Amazon Titan Text Embeddings V2 or Cohere Embed v3 through a `bedrock-runtime` client.

Request and response bodies as documented in the Bedrock user guide (model-parameters-titan-embed-text.html,
model-parameters-embed-v3.html). Titan embeds one text a call, so its calls run on a few threads; Cohere takes up to
96 texts a call. Throttling and a busy service are retried with exponential backoff; any other refusal raises an
`EmbeddingError` naming the model and the service's own message.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from docshelf.embeddings.base import EmbeddingError, EmbeddingModel, UnknownEmbeddingModelError
from docshelf.embeddings.pooling import l2_normalize

TITAN_V2 = "amazon.titan-embed-text-v2:0"
COHERE_MULTILINGUAL = "cohere.embed-multilingual-v3"
COHERE_ENGLISH = "cohere.embed-english-v3"
DEFAULT_BEDROCK_MODEL = TITAN_V2
TITAN_DIMENSIONS = (256, 512, 1024)
TITAN_MAX_CHARACTERS = 50_000  # the service refuses longer inputText; tokens past 8,192 are refused too
COHERE_DIMENSION = 1024
COHERE_BATCH = 96  # texts per call, the service's maximum
COHERE_MAX_CHARACTERS = 2048  # per text; longer ones are refused, so they are cut here (about 500 tokens)
RETRIED_CODES = frozenset(
    {"ThrottlingException", "ServiceUnavailableException", "ModelNotReadyException", "TooManyRequestsException"}
)
MAX_ATTEMPTS = 6
FIRST_DELAY_S = 0.5
MAX_DELAY_S = 20.0
TITAN_THREADS = 8

Sleep = Callable[[float], None]


class BedrockProvider:
    """`model_id` "amazon.titan-embed-text-v2:0" (optionally "/256" or "/512" for fewer dimensions),
    "cohere.embed-multilingual-v3" or "cohere.embed-english-v3"."""

    def __init__(self, client: Any, model_id: str, *, sleep: Sleep | None = None, threads: int = TITAN_THREADS) -> None:
        self.client = client
        self.foundation_model, self.dimension = _parse_model_id(model_id)
        self.model = EmbeddingModel("bedrock", model_id, "1", self.dimension, normalized=True)
        self._sleep = sleep or time.sleep
        self._threads = max(1, threads)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(list(texts), "search_document")

    def embed_query(self, text: str) -> np.ndarray:
        result: np.ndarray = self._embed([text], "search_query")[0]
        return result

    def _embed(self, texts: list[str], input_type: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self.foundation_model == TITAN_V2:
            if self._threads == 1 or len(texts) == 1:
                rows = [self._titan(text) for text in texts]
            else:
                with ThreadPoolExecutor(min(self._threads, len(texts))) as pool:
                    rows = list(pool.map(self._titan, texts))
        else:
            rows = []
            for start in range(0, len(texts), COHERE_BATCH):
                rows.extend(self._cohere(texts[start : start + COHERE_BATCH], input_type))
        vectors = np.asarray(rows, dtype=np.float32)
        if vectors.shape != (len(texts), self.dimension):
            raise EmbeddingError(f"bedrock {self.model.model_id}: expected {self.dimension} dimensions a text")
        return l2_normalize(vectors)

    def _titan(self, text: str) -> list[float]:
        body = {"inputText": text[:TITAN_MAX_CHARACTERS], "dimensions": self.dimension, "normalize": True}
        embedding: list[float] = self._invoke(body)["embedding"]
        return embedding

    def _cohere(self, texts: list[str], input_type: str) -> list[list[float]]:
        body = {
            "texts": [text[:COHERE_MAX_CHARACTERS] for text in texts],
            "input_type": input_type,
            "truncate": "END",
        }
        embeddings: list[list[float]] = self._invoke(body)["embeddings"]
        return embeddings

    def _invoke(self, body: dict[str, Any]) -> dict[str, Any]:
        from botocore.exceptions import ClientError

        for attempt in range(MAX_ATTEMPTS):
            try:
                response = self.client.invoke_model(
                    modelId=self.foundation_model,
                    body=json.dumps(body),
                    contentType="application/json",
                    accept="application/json",
                )
                payload: dict[str, Any] = json.loads(response["body"].read())
                return payload
            except ClientError as error:
                code = error.response.get("Error", {}).get("Code", "")
                if code not in RETRIED_CODES or attempt == MAX_ATTEMPTS - 1:
                    message = error.response.get("Error", {}).get("Message", str(error))
                    raise EmbeddingError(f"bedrock {self.foundation_model}: {code or 'error'}: {message}") from error
                self._sleep(min(MAX_DELAY_S, FIRST_DELAY_S * 2**attempt))
        raise AssertionError("unreachable")  # pragma: no cover


def bedrock_provider(client: Any, model_id: str | None, *, sleep: Sleep | None = None) -> BedrockProvider:
    return BedrockProvider(client, model_id or DEFAULT_BEDROCK_MODEL, sleep=sleep)


def foundation_model_of(model_id: str) -> str:
    """The Bedrock model id without docshelf's dimension suffix (what IAM and invoke_model name)."""
    return model_id.split("/", 1)[0]


def _parse_model_id(model_id: str) -> tuple[str, int]:
    foundation, _, dimensions = model_id.partition("/")
    if foundation == TITAN_V2:
        size = int(dimensions) if dimensions.isdigit() else (1024 if not dimensions else 0)
        if size not in TITAN_DIMENSIONS:
            raise UnknownEmbeddingModelError(f"{TITAN_V2} has {', '.join(map(str, TITAN_DIMENSIONS))} dimensions")
        return foundation, size
    if foundation in (COHERE_MULTILINGUAL, COHERE_ENGLISH) and not dimensions:
        return foundation, COHERE_DIMENSION
    raise UnknownEmbeddingModelError(
        f"unknown bedrock embedding model {model_id!r}: use {TITAN_V2}[/256|/512], {COHERE_MULTILINGUAL} "
        f"or {COHERE_ENGLISH}"
    )
