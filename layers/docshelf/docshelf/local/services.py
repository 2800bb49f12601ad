"""The local services wired together: a local folder store, a SQLite registry, and the embedded index
(the default) or an OpenSearch node (`backend="opensearch"`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from docshelf import pipeline
from docshelf.chunking import ChunkConfig, default_overlap
from docshelf.config import DEFAULT_OPENSEARCH_INDEX, PipelineConfig, local_limits
from docshelf.embeddings.base import EmbeddingProvider
from docshelf.embeddings.cache import VectorCache
from docshelf.embeddings.factory import passage_model_from_config, provider_from_config
from docshelf.errors import DocshelfError
from docshelf.index.base import SearchBackend
from docshelf.index.embedded import EmbeddedIndex
from docshelf.registry import LocalRegistry
from docshelf.store import LocalStore

if TYPE_CHECKING:
    from docshelf.fetch.fetcher import Fetcher
    from docshelf.search.hits_local import SqliteHits
    from docshelf.search.rerank import Reranker

DEFAULT_STORE = ".docshelf"
DEFAULT_OPENSEARCH_URL = "http://127.0.0.1:9200"
Backend = Literal["embedded", "opensearch"]
BACKENDS: tuple[Backend, ...] = ("embedded", "opensearch")
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class LocalServices:
    store: LocalStore
    registry: LocalRegistry
    index: SearchBackend
    config: PipelineConfig
    _embedder: list[EmbeddingProvider | None] = field(default_factory=list, compare=False, repr=False)  # loaded once
    passage_model_name: str = "none"  # one of config.PASSAGE_MODELS
    _passage_model: list[Reranker | None] = field(default_factory=list, compare=False, repr=False)  # loaded once

    @classmethod
    def open(
        cls,
        root: str | Path = DEFAULT_STORE,
        *,
        chunk_tokens: int = 500,
        overlap_tokens: int | None = None,
        whole_document_tokens: int = 0,
        backend: Backend = "embedded",
        opensearch_url: str | None = None,
        opensearch_index: str | None = None,
        embedding_provider: str = "none",
        embedding_model_id: str = "",
        passage_model: str = "none",
    ) -> LocalServices:
        store = LocalStore(root)
        chunking = ChunkConfig(
            chunk_tokens=chunk_tokens,
            overlap_tokens=default_overlap(chunk_tokens) if overlap_tokens is None else overlap_tokens,
            whole_document_tokens=whole_document_tokens,
        )
        return cls(
            store=store,
            registry=LocalRegistry(Path(root) / "registry.sqlite"),
            index=_open_index(store, backend, opensearch_url, opensearch_index),
            config=_with_shard_sizes(
                PipelineConfig(
                    chunking=chunking, embedding_provider=embedding_provider, embedding_model_id=embedding_model_id
                )
            ),
            passage_model_name=passage_model,
        )

    def embedding_provider(self) -> EmbeddingProvider | None:
        """The provider `config` names (None for "none"), loaded once; Bedrock through boto3's default credentials
        and region."""
        if not self._embedder:
            self._embedder.append(self._load_embedding_provider())
        return self._embedder[0]

    def passage_model(self) -> Reranker | None:
        """The sentence model that also orders the evidence's first passages (search/packing.py), loaded once: for
        "local", the default local embedding model (the semantic channel's own when that is the one loaded)."""
        if not self._passage_model:
            self._passage_model.append(passage_model_from_config(self.passage_model_name, self.embedding_provider))
        return self._passage_model[0]

    @property
    def models_loaded(self) -> bool:
        """Whether the embedding provider and the passage model are loaded (by `load_models` or a first use)."""
        return bool(self._embedder) and bool(self._passage_model)

    def load_models(self) -> None:
        """Load the embedding provider and the passage model now, as a server does before it listens: the first
        search then pays no model load (about a quarter of a second for the local sentence model)."""
        self.embedding_provider()
        self.passage_model()

    @property
    def hits(self) -> SqliteHits:
        """The store's hit statistics (`hits.sqlite`): `docshelf serve` counts the chunks its evidence returns, and
        every search of the store is boosted by them (search/hits.py)."""
        from docshelf.search.hits_local import HITS_FILE, SqliteHits

        return SqliteHits(self.store.root / HITS_FILE)

    def vector_cache(self) -> VectorCache | None:
        """Where publishing takes chunk vectors from (None without a provider: chunks are published without)."""
        provider = self.embedding_provider()
        return None if provider is None else VectorCache(self.store, provider)

    def _load_embedding_provider(self) -> EmbeddingProvider | None:
        clients: dict[str, object] = {}
        if self.config.embedding_provider == "bedrock":
            import boto3

            clients["bedrock_runtime"] = boto3.client("bedrock-runtime")
        return provider_from_config(self.config.embedding_provider, self.config.embedding_model_id or None, **clients)

    def ingest(self, data: bytes, *, namespace: str, source_key: str) -> pipeline.IngestResult:
        return pipeline.ingest(
            self.store,
            self.registry,
            self.index,
            data,
            namespace=namespace,
            source_key=source_key,
            config=self.config,
            vectors=self.vector_cache(),
        )

    def ingest_files(
        self, files: Sequence[tuple[Path, str]], *, namespace: str, on_parsed: Callable[[], None] | None = None
    ) -> Iterator[pipeline.IngestResult]:
        """`pipeline.ingest_files` into these services: results in completion order, `on_parsed` called as each
        file is parsed (or found unchanged, or unreadable)."""
        yield from pipeline.ingest_files(
            self.store,
            self.registry,
            self.index,
            files,
            namespace=namespace,
            config=self.config,
            vectors=self.vector_cache(),
            on_parsed=on_parsed,
        )

    def ingest_url(self, url: str, *, namespace: str, fetcher: Fetcher | None = None) -> pipeline.IngestResult:
        """Fetch a web page (public addresses only; see docshelf.fetch) and ingest it as a document."""
        from docshelf.fetch.fetcher import Fetcher
        from docshelf.pipeline.web_ingest import WebServices, ingest_url

        web = WebServices(self.store, self.registry, self.index, self.config, self.vector_cache())
        return ingest_url(web, url, namespace=namespace, fetcher=fetcher or Fetcher())

    def delete(self, *, namespace: str, source_key: str) -> bool:
        return pipeline.delete_document(
            self.store, self.registry, self.index, namespace=namespace, source_key=source_key
        )


def _with_shard_sizes(config: PipelineConfig) -> PipelineConfig:
    return replace(config, limits=local_limits(config.limits))


def _open_index(store: LocalStore, backend: Backend, url: str | None, index_name: str | None) -> SearchBackend:
    if backend == "embedded":
        return EmbeddedIndex(store)
    if backend != "opensearch":
        raise DocshelfError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    from docshelf.index.opensearch import OpenSearchIndex
    from docshelf.index.opensearch.client import opensearch_client

    return OpenSearchIndex(
        opensearch_client(url or DEFAULT_OPENSEARCH_URL), index=index_name or DEFAULT_OPENSEARCH_INDEX
    )
