"""A table chunk's cells, read back from its Markdown text (chunking/tables.py writes it).

A table chunk stores its rows as a pipe table: an optional caption line, the header rows, the `|---|` separator,
then body rows, each cell whitespace-collapsed with `|` escaped as `\\|`. Spanned cells are repeated in every
position they cover (`tables.table_grid`), so the cells read back are the dense grid, not the spans. A chunk that
is not such a table (a row cut into token windows) has no cells.
"""

from __future__ import annotations

import re
from typing import Any

_SEPARATOR = re.compile(r"^\|(?:---\|)+$")


def table_cells(text: str) -> dict[str, Any] | None:
    """`{"caption", "header_rows", "rows"}` of a Markdown table chunk, or None when the text is not one."""
    lines = text.split("\n")
    caption: list[str] = []
    while lines and not is_row(lines[0]):
        caption.append(lines.pop(0))
    rows: list[list[str]] = []
    header_rows = 0
    for line in lines:
        if _SEPARATOR.match(line):
            if header_rows or not rows:
                return None
            header_rows = len(rows)
        elif is_row(line):
            rows.append(row_cells(line))
        else:
            return None
    widths = {len(row) for row in rows}
    if not rows or len(widths) != 1:
        return None
    return {"caption": "\n".join(caption), "header_rows": header_rows, "rows": rows}


def is_row(line: str) -> bool:
    return len(line) >= 4 and line.startswith("| ") and line.endswith(" |")


def row_cells(line: str) -> list[str]:
    # An escaped pipe is written `\|`, never ` | `, so the separator between cells is unambiguous.
    return [cell.replace("\\|", "|") for cell in line[2:-2].split(" | ")]
