"""The chunking invariants over every document of the real corpus that parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.chunking import ChunkConfig, chunk_document
from docshelf.errors import DocumentError
from docshelf.model import Document
from docshelf.parsers import parse_bytes
from tests.chunk_checks import check_chunks
from tests.conftest import CORPUS

CONFIGS = [ChunkConfig(), ChunkConfig(chunk_tokens=200, overlap_tokens=40)]


def corpus_files() -> list[str]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    rows = manifest.read_text(encoding="utf-8").splitlines()[1:]
    return [row.split("\t")[0] for row in rows if row.strip()]


_parsed: dict[str, Document | None] = {}


def parsed(corpus_dir: Path, name: str) -> Document | None:
    if name not in _parsed:
        try:
            _parsed[name] = parse_bytes((corpus_dir / name).read_bytes(), name)
        except DocumentError:
            _parsed[name] = None
    return _parsed[name]


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_files() or ["(corpus absent)"])
def test_chunks_of_every_corpus_document_keep_the_invariants(corpus_dir: Path, name: str) -> None:
    document = parsed(corpus_dir, name)
    if document is None:
        pytest.skip(f"{name} does not parse; its error code is checked by the parser tests")
    for config in CONFIGS:
        chunks = chunk_document(document, document_id="d", namespace="corpus", config=config)
        assert chunks, name
        check_chunks(document, chunks, config)
        assert {page for chunk in chunks for page in chunk.pages} <= {page.number for page in document.pages}
