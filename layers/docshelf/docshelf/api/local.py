"""The search API's backend on one machine: the local registry and index, and the SQLite cache."""

from __future__ import annotations

import threading
from pathlib import Path

from docshelf.index.base import SearchIndex
from docshelf.index.embedded import EmbeddedIndex
from docshelf.local import LocalServices
from docshelf.registry import Registry
from docshelf.search.cache import SqliteSearchCache

CACHE_FILE = "search-cache.sqlite"


class LocalApiBackend:
    def __init__(self, services: LocalServices, *, cache_ttl_s: int = 300) -> None:
        self.services = services
        self._cache = (
            SqliteSearchCache(Path(services.store.root) / CACHE_FILE, ttl_s=cache_ttl_s) if cache_ttl_s > 0 else None
        )
        self._index = services.index
        self._versions: dict[str, int] = {}
        self._lock = threading.Lock()

    @property
    def registry(self) -> Registry:
        return self.services.registry

    @property
    def cache(self) -> SqliteSearchCache | None:
        return self._cache

    def index_for(self, namespace: str) -> SearchIndex:
        """The embedded index keeps a namespace in memory once loaded; `docshelf ingest` or `delete` in another
        process bumps the namespace version, and the next search here then reloads it from the store."""
        if not isinstance(self._index, EmbeddedIndex):
            return self._index
        version = self.services.registry.namespace_version(namespace)
        with self._lock:
            if self._versions.get(namespace, version) != version:
                self._index = EmbeddedIndex(self.services.store)
                self._versions = {}
            self._versions[namespace] = version
            return self._index
