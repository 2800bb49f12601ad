"""XLSX merged ranges and formula cells saved without a computed value, read from the sheet XML with a
streaming, entity-free parser (openpyxl's read-only mode exposes neither)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from lxml import etree

from docshelf.parsers.sheets.sheet_grid import Box

if TYPE_CHECKING:
    from collections.abc import Sequence

SPREADSHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
_CELL_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d{1,7})$")
# A formula cell whose value is missing or empty. An empty `t="str"` value is a computed empty string, and an
# inline string `<is>` is a value too.
_UNCACHED_FORMULAS = {
    ns: etree.XPath("s:c[s:f and not(string(s:v)) and not(s:is) and not(@t='str')]/@r", namespaces={"s": ns})
    for ns in (SPREADSHEET_NS, STRICT_NS)
}


@dataclass(slots=True)
class SheetPart:
    """What the worksheet XML tells beyond openpyxl's read-only cells."""

    merges: list[Box] = field(default_factory=list)
    uncached_formulas: set[tuple[int, int]] = field(default_factory=set)  # 0-based (row, col)


def column_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def parse_range(ref: str) -> Box | None:
    """`B2:D4` as a 0-based inclusive Box; None for anything malformed."""
    parts = ref.strip().split(":")
    if len(parts) != 2:
        return None
    corners = [_CELL_REF.match(part) for part in parts]
    if corners[0] is None or corners[1] is None:
        return None
    (c1, r1), (c2, r2) = (m.groups() for m in corners if m is not None)
    top, bottom = sorted((int(r1) - 1, int(r2) - 1))
    left, right = sorted((column_number(c1) - 1, column_number(c2) - 1))
    if top < 0 or left < 0:
        return None
    return Box(top, left, bottom, right)


def read_sheet_part(source: IO[bytes], *, find_formulas: bool) -> SheetPart:
    """Every `<mergeCell ref=...>` of a worksheet part and, if `find_formulas`, its formula cells without a cached
    value (a workbook written by a library and never calculated), streaming so that a huge sheet stays bounded
    in memory."""
    tags = [f"{{{ns}}}{name}" for ns in (SPREADSHEET_NS, STRICT_NS) for name in ("row", "mergeCell")]
    part = SheetPart()
    events = etree.iterparse(
        source, events=("end",), tag=tags, resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False
    )
    for _, element in events:
        namespace, _, name = element.tag[1:].partition("}")
        if name == "mergeCell":
            box = parse_range(element.get("ref", ""))
            if box is not None:
                part.merges.append(box)
        elif find_formulas:
            refs = _UNCACHED_FORMULAS[namespace](element)
            if isinstance(refs, list) and refs:
                part.uncached_formulas.update(_positions(refs))
        element.clear(keep_tail=False)
        while element.getprevious() is not None:
            parent = element.getparent()
            if parent is None:
                break
            del parent[0]
    return part


def _positions(refs: Sequence[object]) -> list[tuple[int, int]]:
    cells = [_CELL_REF.match(str(ref)) for ref in refs]
    return [(int(m.group(2)) - 1, column_number(m.group(1)) - 1) for m in cells if m is not None]
