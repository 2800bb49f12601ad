"""The local writer's publishing (`docshelf ingest`): the chunks of many parsed files in one bulk write."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.index.base import SearchBackend
from docshelf.model import Chunk
from docshelf.pipeline.chunk import chunk_without_writing
from docshelf.pipeline.outcomes import DocumentRef, IngestResult, ParseOutcome
from docshelf.pipeline.parsed import answer_without_publishing, published_result
from docshelf.pipeline.publish import publish_many, published_with
from docshelf.registry import Registry
from docshelf.store.base import ObjectStore


@dataclass(frozen=True, slots=True)
class ChunkedFile:
    """A file parsed, chunked and its artifacts written where it was parsed (`chunk_where_parsed`), waiting to be
    published: its chunks, not its document."""

    ref: DocumentRef
    chunks: list[Chunk]
    chunk_hit: bool
    seconds: float  # parsing and chunking it took


def chunk_where_parsed(
    store: ObjectStore, outcome: ParseOutcome, *, config: PipelineConfig
) -> ParseOutcome | ChunkedFile:
    """A document just parsed, chunked at once with its artifacts written, so that a forked parse worker does that
    work too and sends back its chunks instead of its document (the writer then only publishes). A failure, or a
    parse cache hit (which may need no chunking: the writer decides), is left as it is."""
    if outcome.document is None or outcome.cache_hit:
        return outcome
    started = time.perf_counter()
    chunked = chunk_without_writing(store, outcome, config=config)
    seconds = outcome.seconds
    del outcome  # the document goes before the artifacts' JSON is written (it may be as large as its chunks)
    chunked.write(store)
    return ChunkedFile(chunked.ref, chunked.chunks, chunked.cache_hit, seconds + time.perf_counter() - started)


@dataclass(frozen=True, slots=True)
class _Waiting:
    """A chunked file waiting for its batch's bulk write: what its result needs, without its document."""

    ref: DocumentRef
    chunks: list[Chunk]
    parse_hit: bool
    chunk_hit: bool
    started: float


class BatchedPublishing:
    """`ingest_parsed` over the parsed files of one writer (`docshelf ingest`), publishing their chunks together:
    one bulk write per PUBLISH_CHUNKS chunks or PUBLISH_DOCUMENTS documents. One write per small document cost
    the embedded index about 4x its share of a bulk one; a large last batch is published alone once the parse
    workers are done (256 documents a batch made a 400-report ingest about 10% longer than 64). A file's result
    comes once it is published; failed and unchanged files come at once. Files still waiting when the command
    stops have no record, so the next ingest publishes them (from its parse and chunk caches)."""

    PUBLISH_CHUNKS = 4096
    PUBLISH_DOCUMENTS = 64

    def __init__(
        self,
        store: ObjectStore,
        registry: Registry,
        index: SearchBackend,
        *,
        config: PipelineConfig,
        vectors: VectorCache | None = None,
    ) -> None:
        self.store, self.registry, self.index, self.config = store, registry, index, config
        self.vectors = vectors  # chunks embedded on publishing when given
        self._waiting: list[_Waiting] = []
        self._waiting_chunks = 0

    def add(self, outcome: ParseOutcome) -> list[IngestResult]:
        """Results ready after this file: its own, or those of the batch it completed (or none yet)."""
        return self.add_next(iter((outcome,))) or []

    def add_next(self, outcomes: Iterator[ParseOutcome | ChunkedFile]) -> list[IngestResult] | None:
        """`add` of the next parsed file from `outcomes`; None when there is none. Taken from the iterator here,
        so that this frame holds the only reference to its document and can let go of it once it is chunked."""
        outcome = next(outcomes, None)
        if outcome is None:
            return None
        started = time.perf_counter() - outcome.seconds
        if isinstance(outcome, ChunkedFile):  # parsed just now (no cache hit, so nothing published as it is)
            return self._wait(
                outcome.ref, outcome.chunks, parse_hit=False, chunk_hit=outcome.chunk_hit, started=started
            )
        answered = answer_without_publishing(
            self.store, self.registry, self.index, outcome, config=self.config, started=started
        )
        if answered is not None:
            return [answered]
        chunked = chunk_without_writing(self.store, outcome, config=self.config)
        parse_hit = outcome.cache_hit
        # The document is not needed to write the chunks or publish them, and may be as large as its chunks
        # (a 200 MB text), so it goes before their JSON is written.
        del outcome
        chunked.write(self.store)
        return self._wait(
            chunked.ref, chunked.chunks, parse_hit=parse_hit, chunk_hit=chunked.cache_hit, started=started
        )

    def _wait(
        self, ref: DocumentRef, chunks: list[Chunk], *, parse_hit: bool, chunk_hit: bool, started: float
    ) -> list[IngestResult]:
        """Queue a chunked file for its batch's bulk write: the results of the batches that this completes."""
        ready = self.flush() if self._must_flush_before(ref) else []
        self._waiting.append(_Waiting(ref, chunks, parse_hit, chunk_hit, started))
        self._waiting_chunks += len(chunks)
        if self._waiting_chunks >= self.PUBLISH_CHUNKS or len(self._waiting) >= self.PUBLISH_DOCUMENTS:
            ready += self.flush()
        return ready

    def _must_flush_before(self, ref: DocumentRef) -> bool:
        """A batch holds one namespace and each document once (the same file named twice publishes twice)."""
        return bool(self._waiting) and (
            self._waiting[0].ref.namespace != ref.namespace
            or any(waiting.ref.document_id == ref.document_id for waiting in self._waiting)
        )

    def flush(self) -> list[IngestResult]:
        """Publish the files waiting and return their results."""
        waiting, self._waiting, self._waiting_chunks = self._waiting, [], 0
        if not waiting:
            return []
        batch = [(item.ref, item.chunks) for item in waiting]
        publication = published_with(self.config, self.index)
        published = publish_many(self.index, self.registry, batch, published_with=publication, vectors=self.vectors)
        published.raise_for_refused()
        return [
            published_result(item.ref, item.chunks, parse_hit=item.parse_hit, chunk_hit=item.chunk_hit,
                             started=item.started)
            for item in waiting
        ]  # fmt: skip
