"""The retrievers as their frameworks use them: LangChain's standard retriever tests (`langchain-tests`) and a
LlamaIndex query engine with a fake LLM, each against a live `docshelf serve`."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import PUMP, SECRET, VALVES, ingest_tenants, serving, token
from tests.functional.client.conftest import BOILER

pytest.importorskip("langchain_tests", reason="langchain-tests is a dev dependency")
pytest.importorskip("llama_index.core", reason="llama-index-core is a dev dependency")

from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode

from docshelf.client.langchain import DocshelfRetriever
from docshelf.client.llamaindex import DocshelfLlamaRetriever

DEMO = token("alice", ["demo"])
LIVE: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def live_serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("retrievers") / "store"
    written = ingest_tenants(root)
    written.ingest(BOILER, namespace="demo", source_key="boiler.md")
    written.index.commit()
    folder = root.parent / "demo-files"  # the demo namespace's source folder: serve --sources demo=DIR
    for key, data in (("manuals/pump.md", PUMP), ("valves.md", VALVES), ("boiler.md", BOILER)):
        (folder / key).parent.mkdir(parents=True, exist_ok=True)
        (folder / key).write_bytes(data)
    backend = LocalApiServices(LocalServices.open(root), cache_ttl_s=300, sources={"demo": folder})
    with serving(backend, ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        LIVE["url"] = server.url
        yield server.url


class TestDocshelfRetrieverStandard(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[DocshelfRetriever]:
        return DocshelfRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"base_url": LIVE["url"], "token": DEMO, "namespace": "demo"}

    @property
    def retriever_query_example(self) -> str:
        return "pump seal maintenance"


def test_langchain_documents_carry_citations_and_fit_max_tokens(live_serve: str) -> None:
    retriever = DocshelfRetriever(base_url=live_serve, token=DEMO, namespace="demo", k=3, max_tokens=2000)
    documents = retriever.invoke("pump seal replacement hours")
    assert isinstance(documents[0], Document) and "2000 operating hours" in documents[0].page_content
    cited = documents[0].metadata
    assert cited["source_file_name"] == "pump.md" and cited["pages"] == [1] and cited["section_path"] == ["Pump guide"]
    assert cited["citation"].startswith("[1] manuals/pump.md | Pump guide | p. 1 | ")
    assert cited["source"] == f"{live_serve}/documents/{cited['document_id']}/source?namespace=demo"
    assert {"document_id", "chunk_id", "chunk_type", "score", "namespace"} <= set(cited)
    signed = DocshelfRetriever(base_url=live_serve, token=DEMO, namespace="demo", k=1, signed_links=True)
    link = signed.invoke("pump seal replacement hours")[0].metadata["source"]
    assert link.startswith(f"{live_serve}/documents/") and "signature=" in link
    with urllib.request.urlopen(link, timeout=30) as opened:  # no token: a chat UI opens the cited file
        assert opened.read() == PUMP
    tight = DocshelfRetriever(base_url=live_serve, token=DEMO, namespace="demo", k=3, max_tokens=40)
    cut = tight.invoke("pump seal replacement hours")
    assert len(cut) == 1 and len(cut[0].page_content) < len(documents[0].page_content)  # the budget holds


def test_a_llamaindex_query_engine_answers_from_the_nodes(live_serve: str) -> None:
    retriever = DocshelfLlamaRetriever(base_url=live_serve, token=DEMO, namespace="demo", top_k=2)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM(max_tokens=8))
    response = engine.query("How often is the pump seal replaced?")
    nodes = response.source_nodes
    assert nodes and nodes[0].node.metadata["source_file_name"] == "pump.md"
    assert "2000 operating hours" in nodes[0].node.get_content()
    assert nodes[0].score is not None and nodes[0].score > 0
    assert nodes[0].node.metadata["citation"].startswith("[1] manuals/pump.md")
    assert str(response)  # the fake LLM answered from a prompt built with the nodes
    prompt_text = nodes[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert "citation: [1] manuals/pump.md" in prompt_text and "chunk_id" not in prompt_text


def test_the_retrievers_raise_the_apis_errors(live_serve: str) -> None:
    from docshelf.client import DocshelfApiError

    with pytest.raises(DocshelfApiError) as refused:
        DocshelfRetriever(base_url=live_serve, token=DEMO, namespace="secret").invoke("salary")
    assert refused.value.status == 403
    with pytest.raises(DocshelfApiError):
        DocshelfLlamaRetriever(base_url=live_serve, token="forged", namespace="demo").retrieve("pump")
