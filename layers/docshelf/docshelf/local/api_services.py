"""The search API's services on one machine: the local registry and index, and the SQLite cache."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from docshelf.agentic.navigate import StoreNavSource
from docshelf.agentic.plan import PlanMaker
from docshelf.agentic.rules import RULES
from docshelf.api.routes_assets import served_asset_link
from docshelf.api.routes_source import SourceOpener
from docshelf.assets.links import AssetLink
from docshelf.embeddings.base import EmbeddingProvider
from docshelf.graph.source import BuiltGraphSource
from docshelf.index.base import SearchBackend
from docshelf.keys import asset_prefix
from docshelf.local.ingress import UPLOADS_FOLDER
from docshelf.local.link_signing import LinkSigner
from docshelf.local.services import LocalServices
from docshelf.local.source_files import first_source_opener, folder_source_opener, namespace_source_opener
from docshelf.model import Chunk
from docshelf.registry import Registry
from docshelf.registry.runs_local import LocalRunLog
from docshelf.search.cache import SqliteSearchCache
from docshelf.search.hits_local import SqliteHits

if TYPE_CHECKING:
    from docshelf.local.ingress import LocalIngress
    from docshelf.search.rerank import Reranker

CACHE_FILE = "search-cache.sqlite"


class LocalApiServices:
    def __init__(
        self,
        services: LocalServices,
        *,
        cache_ttl_s: int = 300,
        sources: Path | Mapping[str, Path] | None = None,
        ingress: LocalIngress | None = None,
        planner: PlanMaker = RULES,
    ) -> None:
        self.services = services
        # the folder the documents were ingested from (or one per namespace): the source route reads it
        self.sources = sources
        self._ingress = ingress
        self.planner = planner
        self.run_log = LocalRunLog(services.registry.path)
        self.nav_source = StoreNavSource(services.store)
        self.graph_source = BuiltGraphSource(services.store, self.index_for)
        self.link_signer = LinkSigner()
        self._cache = (
            SqliteSearchCache(Path(services.store.root) / CACHE_FILE, ttl_s=cache_ttl_s) if cache_ttl_s > 0 else None
        )
        self._hits = services.hits

    @property
    def registry(self) -> Registry:
        return self.services.registry

    @property
    def cache(self) -> SqliteSearchCache | None:
        return self._cache

    @property
    def hits(self) -> SqliteHits:
        return self._hits

    @property
    def asset_link(self) -> AssetLink:
        """Image chunks link to the asset route (routes_assets.py), signed so an `<img>` or a chat UI opens it
        without a token (a browser cannot open a file path); the search route makes it absolute."""
        signer = self.link_signer

        def link(chunk: Chunk, name: str) -> str:
            path, _, _query = served_asset_link(chunk, name).partition("?")
            return signer.signed(unquote(path), {"namespace": chunk.namespace})

        return link

    def asset_reader(self, namespace: str, document_id: str, name: str) -> bytes | None:
        return self.services.store.get(asset_prefix(namespace, document_id) + name)

    @property
    def source_opener(self) -> SourceOpener | None:
        """Uploads through `PUT /uploads` first, then the `--sources` folder (the namespace's own, if it has one)."""
        uploads = folder_source_opener(Path(self.services.store.root) / UPLOADS_FOLDER, per_namespace=True)
        if self.sources is None:
            return uploads
        if isinstance(self.sources, Path):
            return first_source_opener(uploads, folder_source_opener(self.sources))
        return first_source_opener(uploads, namespace_source_opener(self.sources))

    @property
    def embedder(self) -> EmbeddingProvider | None:
        return self.services.embedding_provider()

    @property
    def passage_model(self) -> Reranker | None:
        return self.services.passage_model()

    @property
    def ingress(self) -> LocalIngress:
        """Uploads, deletes and URL ingestion over the local store (one writer, made on first use)."""
        if self._ingress is None:
            from docshelf.local.ingress import LocalIngress

            self._ingress = LocalIngress(self.services)
        return self._ingress

    def index_for(self, namespace: str) -> SearchBackend:
        """The index as of the namespace's version: `docshelf ingest` or `delete` in another process bumps it."""
        return self.services.index.reader(namespace, self.services.registry.namespace_version(namespace))
