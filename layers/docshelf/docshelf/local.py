"""The embedded default wired together: a local folder store, a SQLite registry, the embedded index."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docshelf import pipeline
from docshelf.chunking import ChunkConfig
from docshelf.index.embedded import EmbeddedIndex
from docshelf.registry import LocalRegistry
from docshelf.store import LocalStore

DEFAULT_STORE = ".docshelf"


@dataclass(frozen=True, slots=True)
class LocalServices:
    store: LocalStore
    registry: LocalRegistry
    index: EmbeddedIndex
    config: pipeline.PipelineConfig

    @classmethod
    def open(
        cls,
        root: str | Path = DEFAULT_STORE,
        *,
        chunk_tokens: int = 500,
        overlap_tokens: int = 0,
        whole_document_tokens: int = 0,
    ) -> LocalServices:
        store = LocalStore(root)
        chunking = ChunkConfig(
            chunk_tokens=chunk_tokens, overlap_tokens=overlap_tokens, whole_document_tokens=whole_document_tokens
        )
        return cls(
            store=store,
            registry=LocalRegistry(Path(root) / "registry.sqlite"),
            index=EmbeddedIndex(store),
            config=pipeline.PipelineConfig(chunking=chunking),
        )

    def ingest(self, data: bytes, *, namespace: str, source_key: str) -> pipeline.IngestResult:
        return pipeline.ingest(
            self.store, self.registry, self.index, data, namespace=namespace, source_key=source_key, config=self.config
        )

    def delete(self, *, namespace: str, source_key: str) -> bool:
        return pipeline.delete_document(
            self.store, self.registry, self.index, namespace=namespace, source_key=source_key
        )
