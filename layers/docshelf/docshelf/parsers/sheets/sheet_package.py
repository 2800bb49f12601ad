"""XLSX merged ranges, read from the sheet XML with a streaming, entity-free parser (openpyxl's read-only mode
does not expose them)."""

from __future__ import annotations

import re
from typing import IO

from lxml import etree

from docshelf.parsers.sheets.sheet_grid import Box

SPREADSHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
_CELL_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d{1,7})$")


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


def read_merged_ranges(source: IO[bytes]) -> list[Box]:
    """Every `<mergeCell ref=...>` of a worksheet part, streaming so that a huge sheet stays bounded in memory."""
    tags = [f"{{{ns}}}{name}" for ns in (SPREADSHEET_NS, STRICT_NS) for name in ("row", "mergeCell")]
    merges: list[Box] = []
    events = etree.iterparse(
        source, events=("end",), tag=tags, resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False
    )
    for _, element in events:
        if element.tag.endswith("mergeCell"):
            box = parse_range(element.get("ref", ""))
            if box is not None:
                merges.append(box)
        element.clear(keep_tail=False)
        while element.getprevious() is not None:
            parent = element.getparent()
            if parent is None:
                break
            del parent[0]
    return merges
