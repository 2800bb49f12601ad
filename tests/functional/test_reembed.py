"""`docshelf reembed`: a namespace's chunks given vectors of another model in one write, read from the index (no
parse, no chunking), through the vector cache; the records then name the new embeddings."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.index.vectors import VectorModel
from docshelf.local.cli import main
from docshelf.local.services import LocalServices
from docshelf.pipeline.publish import published_with
from docshelf.pipeline.reembed import reembed_namespace, with_embeddings
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from tests.embedding_fakes import ConceptEmbedder, FakeModel
from tests.functional.test_hybrid_ingest import TEXTS, _Counting, _ingest, docs  # noqa: F401


def test_with_embeddings_replaces_only_the_embeddings_part() -> None:
    assert (
        with_embeddings("chunk=500/40;index=embedded:x", "local:") == "chunk=500/40;index=embedded:x;embeddings=local:"
    )
    assert with_embeddings("c;index=i;embeddings=local:", "bedrock:m") == "c;index=i;embeddings=bedrock:m"


@pytest.fixture(params=["embedded", pytest.param("opensearch", marks=pytest.mark.opensearch)])
def services(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LocalServices]:
    if request.param == "embedded":
        yield LocalServices.open(tmp_path / "store")
        return
    node = request.getfixturevalue("opensearch_node")
    url = f"http://{node.transport.hosts[0]['host']}:{node.transport.hosts[0]['port']}"
    opened = LocalServices.open(
        tmp_path / "store", backend="opensearch", opensearch_url=url, opensearch_index=f"reembed-{uuid.uuid4().hex[:8]}"
    )
    try:
        yield opened
    finally:
        opened.index.drop_index()  # type: ignore[attr-defined]


def test_a_namespace_moves_to_another_model(docs: Path, services: LocalServices) -> None:  # noqa: F811
    services._embedder.append(ConceptEmbedder())
    _ingest(services, docs)
    services.index.commit()
    other = _Counting()
    other.model = FakeModel(model_id="other")
    cache = services.vector_cache()
    assert cache is not None
    cache.provider = other

    done = reembed_namespace(services.index, services.registry, "ns", cache, embeddings="test:other")
    assert (done.documents, done.chunks, done.refused) == (3, 3, {})
    assert other.passages == 3
    assert services.index.vector_model("ns") == VectorModel.of(other.model)
    response = search(services.index, SearchRequest("ns", "physician", top_k=1), embedder=other)
    assert response.results[0].chunk.source_file_name == "clinic.txt"
    assert {r.published_with.rsplit(";", 1)[-1] for r in services.registry.list("ns")} == {"embeddings=test:other"}

    again = reembed_namespace(services.index, services.registry, "ns", cache, embeddings="test:other")
    assert again.chunks == 3 and other.passages == 3  # every vector came from the cache


def test_the_command_refuses_no_provider(docs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    store = str(tmp_path / "store")
    assert main(["ingest", str(docs), "--store", store, "--namespace", "ns", "--quiet"]) == 0
    assert main(["reembed", "--store", store, "--namespace", "ns", "--embeddings", "none"]) == 2
    assert "needs an embedding provider" in capsys.readouterr().err
    assert main(["reembed", "--store", str(tmp_path / "nothing"), "--embeddings", "local"]) == 2


def test_the_command_gives_a_lexical_namespace_local_vectors(
    docs: Path,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from docshelf.embeddings.catalog import DEFAULT_LOCAL_MODEL, find_model_dir

    if find_model_dir(DEFAULT_LOCAL_MODEL) is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true: the local embedding model is not installed (make setup)")
        pytest.skip("the local embedding model is not installed: python infra/fetch_models.py")
    store = ["--store", str(tmp_path / "store"), "--namespace", "ns"]
    assert main(["ingest", str(docs), *store, "--quiet"]) == 0
    assert main(["reembed", *store, "--embeddings", "local"]) == 0
    assert f"ns: {len(TEXTS)} chunks of {len(TEXTS)} documents embedded with local:" in capsys.readouterr().out
    local = LocalServices.open(tmp_path / "store", embedding_provider="local")
    expected = published_with(local.config, local.index)  # what an ingest with the local model finds published
    assert {record.published_with for record in local.registry.list("ns")} == {expected}
    assert main(["search", "when should the automobile be serviced", *store, "--embeddings", "local", "--json"]) == 0
    assert '"semantic"' in capsys.readouterr().out
