"""A document's stored graph.json (written by the publish stage), for the API and agentic navigation."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from docshelf.store.base import ObjectStore


class GraphSource(Protocol):
    def load(self, namespace: str, document_id: str) -> Mapping[str, Any] | None:
        """The document's graph.json, or None when it has none (not published yet, failed, deleted)."""
        ...


@dataclass(frozen=True, slots=True)
class StoreGraphSource:
    store: ObjectStore

    def load(self, namespace: str, document_id: str) -> Mapping[str, Any] | None:
        from docshelf.keys import artifact_key  # keys imports the chunker's settings: not on a cold start

        data = self.store.get(artifact_key(namespace, document_id, "graph.json"))
        if data is None:
            return None
        try:
            loaded = json.loads(data)
        except ValueError:
            return None
        return loaded if isinstance(loaded, dict) and loaded.get("document_id") == document_id else None
