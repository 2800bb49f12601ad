"""A local ingest, the one orchestrator of the local writer (`docshelf ingest`, `docshelf serve`'s uploads): files
hashed and answered from the registry when published as they are, the others parsed (in forked workers with CPUs
to spare) and chunked where they are parsed, then published in batches (`batched.py`); one file in memory goes
through the same steps (`parsed.py`) on its own."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TypeVar

from docshelf import forked
from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.errors import DocumentError
from docshelf.forked import forked_imap
from docshelf.ids import sha256_hex
from docshelf.index.base import SearchBackend
from docshelf.pipeline.batched import BatchedPublishing, ChunkedFile, chunk_where_parsed
from docshelf.pipeline.file_reading import hash_source, read_source
from docshelf.pipeline.outcomes import IngestResult, ParseOutcome
from docshelf.pipeline.parse import document_ref, parse_stage
from docshelf.pipeline.parsed import already_published, ingest_parsed
from docshelf.registry import Registry
from docshelf.store.base import ObjectStore
from docshelf.tokens import encoding

T = TypeVar("T")
R = TypeVar("R")


def ingest(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    data: bytes,
    *,
    namespace: str,
    source_key: str,
    config: PipelineConfig | None = None,
    vectors: VectorCache | None = None,
) -> IngestResult:
    """All three stages for one file in memory (chunks embedded through `vectors` if given)."""
    config = config or PipelineConfig()
    revision = sha256_hex(data)
    unchanged = already_published(registry, index, revision, namespace=namespace, source_key=source_key, config=config)
    if unchanged is not None:
        return unchanged
    outcome = parse_stage(store, data, namespace=namespace, source_key=source_key, config=config, revision=revision)
    return ingest_parsed(store, registry, index, outcome, config=config, vectors=vectors)


def ingest_files(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    files: Sequence[tuple[Path, str]],
    *,
    namespace: str,
    config: PipelineConfig,
    vectors: VectorCache | None = None,
    on_parsed: Callable[[], None] | None = None,
) -> Iterator[IngestResult]:
    """Ingest `(path, source key)` pairs; results come in completion order, each once the file is published, and
    `on_parsed` is called as each file is parsed (or found unchanged, or unreadable), before it is published.

    Files already published as they are need no parse: they are answered first, from the registry. The
    others are parsed by `parse_in_workers` while this process chunks what they have parsed and publishes it in
    batches (`BatchedPublishing`; the registry and the index keep one writer). A file that vanishes
    or cannot be read, when hashed or when parsed, ends as that document's failure; the others go on."""
    changed: list[tuple[Path, str]] = []
    unreadable: list[ParseOutcome] = []
    max_bytes = config.limits.max_bytes
    for path, key in files:
        try:
            revision = hash_source(path, max_bytes)
        except DocumentError as error:
            unreadable.append(_unread(namespace, key, error))
            continue
        unchanged = already_published(registry, index, revision, namespace=namespace, source_key=key, config=config)
        if unchanged is None:
            changed.append((path, key))
        else:
            _called(on_parsed)
            yield unchanged

    def parse(file: tuple[Path, str]) -> ParseOutcome | ChunkedFile:
        path, key = file
        try:
            data = read_source(path, max_bytes)
        except DocumentError as error:
            return _unread(namespace, key, error)
        # The file may have changed since it was hashed: its revision is these bytes'. Chunked here too (in the
        # parse worker), which holds the only reference to the document.
        return chunk_where_parsed(
            store,
            parse_stage(store, data, namespace=namespace, source_key=key, config=config, revision=sha256_hex(data)),
            config=config,
        )

    if len(changed) > 1:
        encoding()  # the vocabulary is loaded once here (about 0.25 s), not by each forked parse worker
    publishing = BatchedPublishing(store, registry, index, config=config, vectors=vectors)
    for outcome in unreadable:
        _called(on_parsed)
        yield from publishing.add(outcome)
    outcomes = _counted(parse_in_workers(parse, changed, path=lambda file: file[0]), on_parsed)
    # `add_next` takes each parsed file itself: no frame here keeps its document once it is chunked.
    while (results := publishing.add_next(outcomes)) is not None:
        yield from results
    yield from publishing.flush()


def parse_in_workers(parse: Callable[[T], R], files: Sequence[T], *, path: Callable[[T], Path]) -> Iterator[R]:
    """`parse` of every file, in completion order: with CPUs to spare, in forked workers of one CPU each
    (none forks page workers of its own), largest file first; otherwise here, one after the other."""
    largest_first = sorted(files, key=lambda file: _size(path(file)), reverse=True)
    # itemgetter through `map`: no loop variable keeps the last result alive while the caller uses it.
    yield from map(itemgetter(1), forked_imap(parse, largest_first, forked.spare_cpus(), child_setup=_one_cpu_each))


def _called(callback: Callable[[], None] | None) -> None:
    if callback is not None:
        callback()


def _counted(items: Iterator[R], callback: Callable[[], None] | None) -> Iterator[R]:
    """`items`, calling `callback` as each one arrives. Through `map`, so no frame here keeps an item while the
    caller uses it (a generator suspended at its `yield` would hold a 200 MB text's Document until the next one)."""

    def passed(item: R) -> R:
        _called(callback)
        return item

    return map(passed, items)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # gone since it was listed: its parse reports that
        return 0


def _unread(namespace: str, source_key: str, error: DocumentError) -> ParseOutcome:
    """The parse outcome of a file that could not be read: a failure of that document, without a revision."""
    return ParseOutcome(document_ref(namespace, source_key, revision=""), error=error)


def _one_cpu_each() -> None:
    os.environ[forked.CPUS_ENV] = "1"
