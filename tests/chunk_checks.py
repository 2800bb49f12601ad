"""Invariant checks shared by the chunker's property tests and the corpus tests."""

from __future__ import annotations

import re

from docshelf.chunking import ChunkConfig
from docshelf.model import Block, Chunk, Document, Table
from docshelf.structure import section_paths
from docshelf.tables import markdown_cell, markdown_rows, markdown_separator, table_grid
from docshelf.tokens import count_tokens

_SPACE = re.compile(r"\s+")


def _squeeze(text: str) -> str:
    return _SPACE.sub("", text)


def _common_prefix(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    prefix = paths[0]
    for path in paths[1:]:
        while path[: len(prefix)] != prefix:
            prefix = prefix[:-1]
    return prefix


def _cited_path(covered: list[tuple[Block, tuple[str, ...]]]) -> tuple[str, ...]:
    """The common prefix of the covered blocks' paths, leaving out headings the next covered block is not under (a
    title, then chapter 1: they have nothing of their own in the chunk) unless all are such, then blocks before
    any heading (no path) unless all are such."""
    own = [
        path
        for number, (block, path) in enumerate(covered)
        if block.kind != "heading" or (number + 1 < len(covered) and covered[number + 1][1][: len(path)] == path)
    ] or [path for _, path in covered]
    in_sections = [path for path in own if path]
    return _common_prefix(in_sections) if in_sections else ()


def check_chunks(document: Document, chunks: list[Chunk], config: ChunkConfig) -> None:
    """Bound, order, no loss, no doubling, and exact pages and section paths for every chunk."""
    for chunk in chunks:
        assert chunk.token_count == count_tokens(chunk.text), chunk.chunk_id
        assert chunk.token_count <= config.chunk_tokens, (chunk.token_count, chunk.text[:80])
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    _check_text_chunks(document, [c for c in chunks if c.type == "text"], config)
    _check_table_chunks(document, [c for c in chunks if c.type == "table"])


def _check_text_chunks(document: Document, chunks: list[Chunk], config: ChunkConfig) -> None:
    stream: list[str] = []
    owner: list[int] = []
    blocks = [(b, p) for b, p in section_paths(document.blocks()) if b.kind in ("heading", "paragraph")]
    for index, (block, _) in enumerate(blocks):
        squeezed = _squeeze(block.text)
        stream.append(squeezed)
        owner.extend([index] * len(squeezed))
    text = "".join(stream)
    position = 0
    previous_last: int | None = None
    for chunk in chunks:
        body = _squeeze(chunk.text[chunk.overlap_chars :])
        assert text.startswith(body, position), f"chunk {chunk.ordinal} is not the next text in order"
        covered = sorted(set(owner[position : position + len(body)]))
        if chunk.overlap_chars:
            assert previous_last is not None
            overlap = _squeeze(chunk.text[: chunk.overlap_chars])
            assert text[:position].endswith(overlap), f"chunk {chunk.ordinal} overlap is not the previous text"
            first_overlap_owner = owner[position - len(overlap)] if overlap else previous_last
            covered = sorted(set(covered) | set(owner[position - len(overlap) : position]) | {first_overlap_owner})
            if not config.overlap_across_pages:
                assert len({blocks[i][0].page for i in owner[position - len(overlap) : position]}) <= 1
        position += len(body)
        assert chunk.pages == tuple(sorted({blocks[i][0].page for i in covered})), chunk.ordinal
        assert chunk.section_path == _cited_path([blocks[i] for i in covered]), chunk.ordinal
        previous_last = covered[-1] if covered else previous_last
    assert position == len(text), "text lost at the end"


def _check_table_chunks(document: Document, chunks: list[Chunk]) -> None:
    tables = [b for b in document.blocks() if isinstance(b, Table) and b.n_rows and b.n_cols]
    by_ref: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_ref.setdefault(chunk.connect_to[0].ref, []).append(chunk)
    for table in tables:
        parts = by_ref.get(f"table-{table.order}", [])
        rows = markdown_rows(table_grid(table))
        separator = markdown_separator(table.n_cols)
        if not any(_squeeze(r.strip("| ")) for r in rows):
            continue
        joined = _squeeze("".join(part.text for part in parts))
        # Without the repeated header, a cell cut into windows reads on across parts.
        bodies = _squeeze("".join(part.text.split(separator, 1)[-1] for part in parts))
        for row, cells in zip(rows, table_grid(table), strict=True):
            if _squeeze(row) in joined:
                continue
            # A row over the bound is split between cells; a cell over it alone, into windows.
            for cell in cells:
                assert _squeeze(markdown_cell(cell)) in bodies, (row[:60], cell[:40])
        assert all(part.pages == (table.page,) for part in parts)
