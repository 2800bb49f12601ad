"""The search API's backend on one machine: the local registry and index, and the SQLite cache."""

from __future__ import annotations

from pathlib import Path

from docshelf.api.routes_source import SourceOpener
from docshelf.api.source_files import folder_source_opener
from docshelf.assets.links import AssetLink, local_asset_link
from docshelf.embeddings.base import EmbeddingProvider
from docshelf.index.base import SearchBackend
from docshelf.local import LocalServices
from docshelf.registry import Registry
from docshelf.search.cache import SqliteSearchCache

CACHE_FILE = "search-cache.sqlite"


class LocalApiBackend:
    def __init__(self, services: LocalServices, *, cache_ttl_s: int = 300, sources: Path | None = None) -> None:
        self.services = services
        self.sources = sources  # the folder the documents were ingested from: the source route reads it
        self._cache = (
            SqliteSearchCache(Path(services.store.root) / CACHE_FILE, ttl_s=cache_ttl_s) if cache_ttl_s > 0 else None
        )

    @property
    def registry(self) -> Registry:
        return self.services.registry

    @property
    def cache(self) -> SqliteSearchCache | None:
        return self._cache

    @property
    def asset_link(self) -> AssetLink:
        return local_asset_link(self.services.store.root)

    @property
    def source_opener(self) -> SourceOpener | None:
        return folder_source_opener(self.sources) if self.sources is not None else None

    @property
    def embedder(self) -> EmbeddingProvider | None:
        return self.services.embedding_provider()

    def index_for(self, namespace: str) -> SearchBackend:
        """The index as of the namespace's version: `docshelf ingest` or `delete` in another process bumps it."""
        return self.services.index.reader(namespace, self.services.registry.namespace_version(namespace))
