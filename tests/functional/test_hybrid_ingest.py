"""Publishing with an embedding provider: chunks embedded through the vector cache (made once), the namespace
searched with the semantic channel; without a provider, publishing is what it was."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.index.vectors import VectorModel
from docshelf.local.services import LocalServices
from docshelf.pipeline.publish import published_with
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from tests.embedding_fakes import ConceptEmbedder

if TYPE_CHECKING:
    import numpy as np

TEXTS = {
    "garage.txt": "Garage notes\n\nThe car needs new brake pads before winter. Tyres were rotated in May.\n",
    "clinic.txt": "Clinic notes\n\nThe doctor examines each patient on arrival and records the blood pressure.\n",
    "kitchen.txt": "Kitchen notes\n\nBake the bread at 220 degrees for forty minutes, then let it cool.\n",
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _ingest(services: LocalServices, docs: Path) -> None:
    files = [(path, path.name) for path in sorted(docs.iterdir())]
    results = list(services.ingest_files(files, namespace="ns"))
    assert {result.status for result in results} == {"ok"}


class _Counting(ConceptEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.passages = 0

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages += len(texts)
        return super().embed_passages(texts)


def test_publishing_embeds_through_the_vector_cache(docs: Path, tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path / "store")
    embedder = _Counting()
    services._embedder.append(embedder)  # the provider the configuration would load
    _ingest(services, docs)
    assert services.index.vector_model("ns") == VectorModel.of(embedder.model)
    assert embedder.passages == 3
    response = search(services.index, SearchRequest("ns", "physician", top_k=1), embedder=embedder)
    assert response.results[0].chunk.source_file_name == "clinic.txt"
    assert response.results[0].channel_ranks == {"semantic": 0}
    again = VectorCache(services.store, embedder)  # cached vectors come back without a call
    again.vectors("ns", "x", "r", [])
    assert embedder.passages == 3


def test_no_provider_publishes_as_before(docs: Path, tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path / "store")
    _ingest(services, docs)
    assert services.index.vector_model("ns") is None
    assert ";embeddings=" not in published_with(services.config, services.index)
    assert published_with(PipelineConfig(embedding_provider="local"), services.index).endswith(";embeddings=local:")


def test_local_model_end_to_end(docs: Path, tmp_path: Path) -> None:
    from docshelf.embeddings.catalog import DEFAULT_LOCAL_MODEL, find_model_dir

    if find_model_dir(DEFAULT_LOCAL_MODEL) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true: the local embedding model is not installed (make setup)")
        pytest.skip("the local embedding model is not installed: python infra/fetch_models.py")
    services = LocalServices.open(tmp_path / "store", embedding_provider="local")
    _ingest(services, docs)
    provider = services.embedding_provider()
    assert provider is not None and services.index.vector_model("ns") == VectorModel.of(provider.model)
    response = search(services.index, SearchRequest("ns", "when should the automobile be serviced", top_k=1),
                      embedder=provider)  # fmt: skip
    assert response.results[0].chunk.source_file_name == "garage.txt"
    assert "semantic" in response.results[0].channel_ranks
