"""Rendering of table blocks: a dense grid, Markdown pipe tables and HTML with spans."""

from __future__ import annotations

import html

from docshelf.model import Block, Table, TableCell


def table_grid(table: Table) -> list[list[str]]:
    """Every position of the table filled with the text of the cell covering it."""
    grid = [["" for _ in range(table.n_cols)] for _ in range(table.n_rows)]
    for cell in table.cells:
        for row in range(cell.row, min(cell.row + cell.rowspan, table.n_rows)):
            for col in range(cell.col, min(cell.col + cell.colspan, table.n_cols)):
                grid[row][col] = cell.text
    return grid


def table_text(table: Table) -> str:
    """A table flattened for the cell holding it: a line per row, its cells' texts apart by ' | '."""
    return "\n".join(" | ".join(cell for cell in row if cell) for row in table_grid(table))


def markdown_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def markdown_rows(rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(markdown_cell(text) for text in row) + " |" for row in rows]


def markdown_separator(n_cols: int) -> str:
    return "|" + "|".join(["---"] * n_cols) + "|"


def table_to_markdown(table: Table) -> str:
    """A GitHub pipe table; the first row is the header (Markdown requires one)."""
    if table.n_rows == 0 or table.n_cols == 0:
        return ""
    lines = markdown_rows(table_grid(table))
    lines.insert(1, markdown_separator(table.n_cols))
    return "\n".join(lines)


def block_text(block: Block) -> str:
    """A block's text as chunks and token counts see it: a table as its Markdown."""
    if block.kind == "table":
        return table_to_markdown(block)
    return block.text


def table_to_html(table: Table) -> str:
    """An HTML table: header rows as `th`, merged cells once with their rowspan/colspan, the caption kept."""
    starts: dict[tuple[int, int], TableCell] = {(cell.row, cell.col): cell for cell in table.cells}
    rows = []
    for r in range(table.n_rows):
        tag = "th" if r < table.header_rows else "td"
        cells = []
        for c in range(table.n_cols):
            cell = starts.get((r, c))
            if cell is None:
                continue
            attrs = (f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else "") + (
                f' colspan="{cell.colspan}"' if cell.colspan > 1 else ""
            )
            cells.append(f"<{tag}{attrs}>{html.escape(cell.text)}</{tag}>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = f"<caption>{html.escape(table.caption)}</caption>" if table.caption else ""
    return "<table>" + caption + "".join(rows) + "</table>"


def table_from_rows(rows: list[list[str]], *, page: int, header_rows: int = 1, caption: str = "") -> Table:
    """A span-free table from plain rows (ragged rows are padded)."""
    n_cols = max((len(row) for row in rows), default=0)
    cells = tuple(TableCell(row=r, col=c, text=text) for r, row in enumerate(rows) for c, text in enumerate(row))
    return Table(
        cells=cells,
        n_rows=len(rows),
        n_cols=n_cols,
        page=page,
        header_rows=min(header_rows, len(rows)),
        caption=caption,
    )
