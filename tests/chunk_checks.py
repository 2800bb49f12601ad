"""Invariant checks shared by the chunker's property tests and the corpus tests."""

from __future__ import annotations

import re
from collections.abc import Callable

from docshelf.chunking import ChunkConfig
from docshelf.model import Block, Chunk, Document, Heading, Paragraph, Table
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
    tables = [c for c in chunks if c.type == "table"]
    _check_text_chunks(document, [c for c in chunks if c.type == "text"], config, _table_leads(document, tables))
    _check_table_chunks(document, tables)


def _table_leads(document: Document, table_chunks: list[Chunk]) -> set[int]:
    """The blocks (places among the headings and paragraphs) a table's chunks may carry instead of a text chunk:
    those right before a table — its introducing paragraph, the headings before them — whose texts, one a line, start
    its first chunk."""
    first_text: dict[str, str] = {}
    for chunk in table_chunks:
        first_text.setdefault(chunk.connect_to[0].ref, chunk.text)
    blocks = document.blocks()
    places = {id(b): at for at, b in enumerate(b for b in blocks if b.kind in ("heading", "paragraph"))}
    leads: set[int] = set()
    for index, block in enumerate(blocks):
        text = first_text.get(f"table-{block.order}") if isinstance(block, Table) else None
        if text is None:
            continue
        run = index
        while run > 0 and _blank(blocks[run - 1]):
            run -= 1  # a blank paragraph is no piece of any chunk
        run -= 1 if run and blocks[run - 1].kind == "paragraph" else 0
        while run > 0 and (blocks[run - 1].kind == "heading" or _blank(blocks[run - 1])):
            run -= 1
        members = [b for b in blocks[run:index] if isinstance(b, (Heading, Paragraph)) and b.text.strip()]
        lines = [" ".join(b.text.split()) if b.kind == "paragraph" else b.text.strip("\n") for b in members]
        for start in range(len(lines)):
            lead = "\n".join(lines[start:])
            if text == lead or text.startswith(lead + "\n"):  # alone: header rows too large to repeat
                leads.update(places[id(b)] for b in members[start:])
                break
    return leads


def _blank(block: Block) -> bool:
    return block.kind == "paragraph" and not block.text.strip()


def _check_text_chunks(document: Document, chunks: list[Chunk], config: ChunkConfig, leads: set[int]) -> None:
    """`leads`: places of blocks a table may carry (`_table_leads`): where a chunk does not go on with one, it is
    skipped."""
    stream: list[str] = []
    owner: list[int] = []
    starts: list[int] = []
    blocks = [(b, p) for b, p in section_paths(document.blocks()) if b.kind in ("heading", "paragraph")]
    for index, (block, _) in enumerate(blocks):
        squeezed = _squeeze(block.text)
        starts.append(len(owner))
        stream.append(squeezed)
        owner.extend([index] * len(squeezed))
    text = "".join(stream)

    def skipped(position: int) -> int | None:
        """Past the block a table may carry that starts at `position` (None: none does)."""
        if position < len(text) and owner[position] in leads and starts[owner[position]] == position:
            return position + len(stream[owner[position]])
        return None

    bodies = [_squeeze(chunk.text[chunk.overlap_chars :]) for chunk in chunks]
    placed = _placed(text, bodies, skipped, [chunk.ordinal for chunk in chunks])
    previous_last: int | None = None
    for chunk, body, position in zip(chunks, bodies, placed, strict=True):
        covered = sorted(set(owner[position : position + len(body)]))
        if chunk.overlap_chars:
            assert previous_last is not None
            overlap = _squeeze(chunk.text[: chunk.overlap_chars])
            assert text[:position].endswith(overlap), f"chunk {chunk.ordinal} overlap is not the previous text"
            first_overlap_owner = owner[position - len(overlap)] if overlap else previous_last
            covered = sorted(set(covered) | set(owner[position - len(overlap) : position]) | {first_overlap_owner})
            if not config.overlap_across_pages:
                assert len({blocks[i][0].page for i in owner[position - len(overlap) : position]}) <= 1
        assert chunk.pages == tuple(sorted({blocks[i][0].page for i in covered})), chunk.ordinal
        assert chunk.section_path == _cited_path([blocks[i] for i in covered]), chunk.ordinal
        previous_last = covered[-1] if covered else previous_last


def _placed(text: str, bodies: list[str], skipped: Callable[[int], int | None], ordinals: list[int]) -> list[int]:
    """Where each chunk's text starts in `text`: each right after the one before, or past blocks a table carried
    (`skipped`), and nothing left after the last. Where a carried block's text also starts the next chunk (a title
    repeated), both readings are tried."""

    def options(position: int, body: str) -> list[int]:
        found: list[int] = []
        at: int | None = position
        while at is not None:
            if text.startswith(body, at):
                found.append(at)
            at = skipped(at)
        return found

    def ends_the_text(position: int) -> bool:
        at: int | None = position
        while at is not None and at < len(text):
            at = skipped(at)
        return at == len(text)

    if not bodies:
        assert ends_the_text(0), "text lost at the end"
        return []
    stack = [options(0, bodies[0])]
    deepest = -1  # the last chunk placed in any reading
    while stack:
        if not stack[-1]:
            stack.pop()
            if stack:
                stack[-1].pop(0)
            continue
        level = len(stack) - 1
        deepest = max(deepest, level)
        end = stack[-1][0] + len(bodies[level])
        if level + 1 == len(bodies):
            if ends_the_text(end):
                return [choices[0] for choices in stack]
            stack[-1].pop(0)
            continue
        stack.append(options(end, bodies[level + 1]))
    if deepest + 1 == len(bodies):
        raise AssertionError("text lost at the end")
    raise AssertionError(f"chunk {ordinals[deepest + 1]} is not the next text in order")


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
