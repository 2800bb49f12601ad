"""Table chunk texts: Markdown row groups under the bound, each repeating the header rows."""

from __future__ import annotations

from collections.abc import Iterator

from docshelf.chunking.split import token_windows
from docshelf.model import Table
from docshelf.tables import markdown_rows, markdown_separator, table_grid
from docshelf.tokens import count_tokens


def table_pieces(table: Table, max_tokens: int) -> Iterator[str]:
    """Markdown texts covering every row once; a cell is cut only when one row alone is over the bound."""
    if table.n_rows == 0 or table.n_cols == 0:
        return
    rows = markdown_rows(table_grid(table))
    header_count = max(1, min(table.header_rows, len(rows) - 1)) if len(rows) > 1 else 1
    head = [*rows[:header_count], markdown_separator(table.n_cols)]
    if table.caption:
        head.insert(0, table.caption)
    body = rows[header_count:]
    head_text = "\n".join(head)
    if count_tokens(head_text) > max_tokens // 2:
        # Headers too big to repeat: the header rows become ordinary rows of the first piece.
        head_text, body = "", [*([table.caption] if table.caption else []), *rows]
    if not body:
        yield from token_windows(head_text, max_tokens)
        return
    current: list[str] = []
    for row in body:
        candidate = "\n".join(filter(None, [head_text, *current, row]))
        if current and count_tokens(candidate) > max_tokens:
            yield "\n".join(filter(None, [head_text, *current]))
            current = []
            candidate = "\n".join(filter(None, [head_text, row]))
        if count_tokens(candidate) > max_tokens:
            yield from token_windows(candidate, max_tokens)
            continue
        current.append(row)
    if current:
        yield "\n".join(filter(None, [head_text, *current]))
