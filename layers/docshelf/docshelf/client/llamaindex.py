"""A LlamaIndex retriever over docshelf's search API (`pip install 'docshelf[llamaindex]'`).

    retriever = DocshelfLlamaRetriever(base_url="http://127.0.0.1:8080", token=jwt, namespace="handbook")
    engine = RetrieverQueryEngine.from_args(retriever, llm=llm)

Each node is one ranked chunk with its score, its metadata the citation (document_id, chunk_id, source_file_name,
section_path, pages, source link, a `[n] ...` citation line); together they fit `max_tokens`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from docshelf.client.api import DocshelfClient
from docshelf.client.cited import budgeted_passages, source_links

# Metadata the LLM need not read in every node's text (the citation line says it all).
HIDDEN_FROM_LLM = ("rank", "namespace", "chunk_id", "score", "source", "chunk_type", "source_key", "section_path")


class DocshelfLlamaRetriever(BaseRetriever):
    def __init__(
        self,
        *,
        base_url: str = "",
        namespace: str,
        token: str | None = None,
        client: DocshelfClient | None = None,
        top_k: int = 8,
        max_tokens: int = 2000,
        agentic: bool = False,
        signed_links: bool = False,
        documents: Sequence[str] = (),
        chunk_types: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        if client is None and not base_url:
            raise ValueError("give base_url (and token) or client")
        self.client = client or DocshelfClient(base_url, token=token)
        self.namespace = namespace
        self.top_k = top_k
        self.max_tokens = max_tokens
        self.agentic = agentic
        self.signed_links = signed_links  # cite a link that opens without a token (one call a cited document)
        self.documents = list(documents)
        self.chunk_types = list(chunk_types)
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        search = self.client.agentic_search if self.agentic else self.client.search
        result = search(
            query_bundle.query_str,
            namespace=self.namespace,
            top_k=self.top_k,
            max_tokens=self.max_tokens,
            documents=self.documents,
            chunk_types=self.chunk_types,
        )
        links = source_links(self.client, result, self.namespace) if self.signed_links else None
        nodes = []
        for passage in budgeted_passages(result, self.client.base_url, self.namespace, links):
            node = TextNode(
                text=passage.text,
                id_=passage.chunk_id,
                metadata=passage.metadata,
                excluded_llm_metadata_keys=list(HIDDEN_FROM_LLM),
                excluded_embed_metadata_keys=list(passage.metadata),
            )
            nodes.append(NodeWithScore(node=node, score=passage.score))
        return nodes
