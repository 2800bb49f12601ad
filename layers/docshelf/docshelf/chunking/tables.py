"""Table chunk texts: Markdown row groups under the bound, each repeating the header rows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from docshelf.chunking.split import split_sentences, token_windows
from docshelf.model import Block, Paragraph, Table
from docshelf.tables import markdown_cell, markdown_rows, markdown_separator, table_grid
from docshelf.tokens import count_tokens, count_tokens_batch

# An introducing sentence longer than this is a paragraph that happens to precede the table, not its introduction.
MAX_INTRODUCTION_TOKENS = 120


def with_introduction(table: Table, blocks: Sequence[Block], index: int) -> Table:
    """The table (at `blocks[index]`) captioned, when it has no caption, by the sentence right before it: the last
    sentence of the paragraph it follows (`…次の表のとおり付与する。`, `The limits are:`). Each of its chunks then
    says what the grid is."""
    if table.caption or index == 0:
        return table
    previous = blocks[index - 1]
    if not isinstance(previous, Paragraph) or previous.code or previous.list_level is not None:
        return table
    sentences = split_sentences(previous.text.strip())
    sentence = " ".join(sentences[-1].split()) if sentences else ""
    if not sentence or count_tokens(sentence) > MAX_INTRODUCTION_TOKENS:
        return table
    return replace(table, caption=sentence)


def table_pieces(table: Table, max_tokens: int) -> Iterator[str]:
    """Markdown texts covering every row once; a cell is cut only when it alone is over the bound."""
    if table.n_rows == 0 or table.n_cols == 0:
        return
    grid = table_grid(table)
    rows = markdown_rows(grid)
    header_count = max(1, min(table.header_rows, len(rows) - 1)) if len(rows) > 1 else 1
    head = [*rows[:header_count], markdown_separator(table.n_cols)]
    if table.caption:
        head.insert(0, table.caption)
    body, body_grid = rows[header_count:], grid[header_count:]
    head_text = "\n".join(head)
    if count_tokens(head_text) > max_tokens // 2:
        # Headers too big to repeat: the header rows become ordinary rows of the first piece.
        head_text, body, body_grid = "", rows, grid
        if table.caption:
            yield from token_windows(table.caption, max_tokens)
    if not body:
        yield from token_windows(head_text, max_tokens)
        return
    yield from _pack_rows(head_text, body, body_grid, max_tokens)


def _pack_rows(head: str, rows: list[str], grid: list[list[str]], max_tokens: int) -> Iterator[str]:
    head_tokens = count_tokens(head) + 1 if head else 0
    current: list[str] = []
    used = head_tokens
    for row, cells, tokens in zip(rows, grid, count_tokens_batch(rows), strict=True):
        if head_tokens + tokens + 1 > max_tokens:
            yield from _flush(head, current, max_tokens)
            current, used = [], head_tokens
            yield from _oversized_row(head, head_tokens, cells, max_tokens)
            continue
        if current and used + tokens + 1 > max_tokens:
            yield from _flush(head, current, max_tokens)
            current, used = [], head_tokens
        current.append(row)
        used += tokens + 1
    yield from _flush(head, current, max_tokens)


def _flush(head: str, rows: list[str], max_tokens: int) -> Iterator[str]:
    """The rows under the header; summed row counts only estimate the joined text, so check it."""
    if not rows:
        return
    text = "\n".join(filter(None, [head, *rows]))
    if count_tokens(text) <= max_tokens:
        yield text
    elif len(rows) == 1:
        yield from token_windows(text, max_tokens)
    else:
        middle = len(rows) // 2
        yield from _flush(head, rows[:middle], max_tokens)
        yield from _flush(head, rows[middle:], max_tokens)


def _oversized_row(head: str, head_tokens: int, cells: list[str], max_tokens: int) -> Iterator[str]:
    """A row over the bound: runs of whole cells under the header; only a cell over the bound by
    itself is cut, into token windows."""
    budget = max_tokens - head_tokens - 4
    segment: list[str] = []
    for cell in (markdown_cell(text) for text in cells):
        candidate = "| " + " | ".join([*segment, cell]) + " |"
        if segment and count_tokens(candidate) > budget:
            yield "\n".join(filter(None, [head, "| " + " | ".join(segment) + " |"]))
            segment = []
        if count_tokens(cell) > budget:
            yield from ("\n".join(filter(None, [head, part])) for part in token_windows(cell, budget))
            continue
        segment.append(cell)
    if segment:
        yield "\n".join(filter(None, [head, "| " + " | ".join(segment) + " |"]))
