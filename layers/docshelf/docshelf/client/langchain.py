"""A LangChain retriever over docshelf's search API (`pip install 'docshelf[langchain]'`).

    retriever = DocshelfRetriever(base_url="http://127.0.0.1:8080", token=jwt, namespace="handbook")
    documents = retriever.invoke("pump seal interval")

Each `Document` is one ranked chunk, its metadata the citation (document_id, chunk_id, source_file_name,
section_path, pages, source link and a `[n] ...` citation line); together they fit `max_tokens`. With
`signed_links=True` the source link opens the file without a token (a chat UI can show it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, PrivateAttr

from docshelf.client.api import DocshelfClient
from docshelf.client.cited import budgeted_passages, source_links

if TYPE_CHECKING:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun


class DocshelfRetriever(BaseRetriever):
    base_url: str
    namespace: str
    token: str | None = Field(default=None, repr=False)
    k: int = 8
    max_tokens: int = 2000
    agentic: bool = False
    signed_links: bool = False  # cite a link that opens without a token (one more call a cited document)
    documents: list[str] = Field(default_factory=list)
    chunk_types: list[str] = Field(default_factory=list)
    client: DocshelfClient | None = Field(default=None, exclude=True, repr=False)
    model_config = ConfigDict(arbitrary_types_allowed=True)
    _client: DocshelfClient = PrivateAttr()

    def model_post_init(self, context: Any, /) -> None:
        self._client = self.client or DocshelfClient(self.base_url, token=self.token)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, k: int | None = None, **_: Any
    ) -> list[Document]:
        search = self._client.agentic_search if self.agentic else self._client.search
        result = search(
            query,
            namespace=self.namespace,
            top_k=k or self.k,
            max_tokens=self.max_tokens,
            documents=self.documents,
            chunk_types=self.chunk_types,
        )
        links = source_links(self._client, result, self.namespace) if self.signed_links else None
        return [
            Document(page_content=passage.text, metadata=passage.metadata, id=passage.chunk_id)
            for passage in budgeted_passages(result, self._client.base_url, self.namespace, links)
        ]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, k: int | None = None, **_: Any
    ) -> list[Document]:
        from langchain_core.runnables.config import run_in_executor

        return await run_in_executor(None, self._get_relevant_documents, query, run_manager=run_manager.get_sync(), k=k)
