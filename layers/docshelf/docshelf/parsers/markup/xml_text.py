"""Text of mixed-content XML elements and CALS tables (`tgroup/row/entry`, used by patents and DocBook)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from docshelf.model import Table
from docshelf.parsers.markup.html_blocks import normalise_inline
from docshelf.parsers.markup.html_tables import RawCell, compact_table
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

_BREAK = "\ue000"


def mixed_text(element: etree._Element, *, skip: Collection[str] = (), breaks: Collection[str] = ("br",)) -> str:
    """Whitespace-normalised text of an element, leaving out subtrees named in `skip`."""
    parts: list[str] = []

    def collect(node: etree._Element) -> None:
        name = local(node.tag)
        if name in breaks:
            parts.append(_BREAK)
        elif name and name not in skip:
            parts.append(node.text or "")
            for child in node:
                collect(child)
                parts.append(child.tail or "")

    collect(element)
    return normalise_inline("".join(parts))


def cals_table(table: etree._Element, *, page: int, caption: str = "") -> Table | None:
    """A CALS table: colspec names for namest/nameend spans, morerows for row spans."""
    cells: list[RawCell] = []
    n_rows = 0
    n_cols = 0
    header_rows = 0
    for group in (node for node in table.iter() if local(node.tag) == "tgroup"):
        columns = {
            str(spec.get("colname")): index
            for index, spec in enumerate(node for node in group if local(node.tag) == "colspec")
            if spec.get("colname")
        }
        occupied: set[tuple[int, int]] = set()
        for section in group:
            section_name = local(section.tag)
            if section_name not in ("thead", "tbody", "tfoot"):
                continue
            for row in (node for node in section if local(node.tag) == "row"):
                col = 0
                for entry in (node for node in row if local(node.tag) == "entry"):
                    while (n_rows, col) in occupied:
                        col += 1
                    start = columns.get(str(entry.get("namest") or entry.get("colname")), col)
                    end = columns.get(str(entry.get("nameend")), start)
                    col = max(col, start)
                    colspan = max(1, end - start + 1)
                    rowspan = 1 + _int(entry.get("morerows"))
                    cells.append(RawCell(n_rows, col, mixed_text(entry), rowspan, colspan))
                    occupied.update((n_rows + r, col + c) for r in range(rowspan) for c in range(colspan))
                    col += colspan
                    n_cols = max(n_cols, col)
                if section_name == "thead" and header_rows == n_rows:
                    header_rows += 1
                n_rows += 1
    if not any(cell.text for cell in cells):
        return None
    for cell in cells:
        cell.rowspan = max(1, min(cell.rowspan, n_rows - cell.row))
    return compact_table(cells, n_rows, n_cols, header_rows=header_rows, page=page, caption=caption)


def _int(value: object) -> int:
    text = str(value or "0").strip()
    return min(int(text), 10_000) if text.isdigit() else 0
