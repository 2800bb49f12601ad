"""Measures against docling reference conversions: word recall of the text and F1 of table cell texts."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import TYPE_CHECKING

from tests.unit.parsers.markup_measures import document_text

if TYPE_CHECKING:
    from pathlib import Path

    from docshelf.model import Document

_WORD = re.compile(r"\w+", re.UNICODE)


def _words(text: str) -> Counter[str]:
    return Counter(word.lower() for word in _WORD.findall(text))


def _normal(text: str) -> str:
    return " ".join(text.split()).lower()


def text_recall(document: Document, reference_markdown: str) -> float:
    """Share of the reference's words (with multiplicity) found in the parsed document."""
    expected = _words(reference_markdown.replace("<!-- image -->", ""))
    found = _words(document_text(document))
    total = sum(expected.values())
    return 1.0 if total == 0 else sum((expected & found).values()) / total


def reference_text(docling_json: Path) -> str:
    """Body texts and table cells of a docling conversion (chart data docling renders from pictures is left
    out: it duplicates sheet cells and is not document text)."""
    data = json.loads(docling_json.read_text(encoding="utf-8"))
    parts = [
        item.get("text", "")
        for item in data.get("texts", [])
        if not item.get("parent", {}).get("$ref", "").startswith("#/pictures")
    ]
    parts.extend(cell["text"] for table in data.get("tables", []) for cell in table["data"]["table_cells"])
    return "\n".join(parts)


def reference_cells(docling_json: Path) -> Counter[str]:
    data = json.loads(docling_json.read_text(encoding="utf-8"))
    cells: Counter[str] = Counter()
    for table in data.get("tables", []):
        for cell in table["data"]["table_cells"]:
            if _normal(cell["text"]):
                cells[_normal(cell["text"])] += 1
    return cells


def parsed_cells(document: Document) -> Counter[str]:
    cells: Counter[str] = Counter()
    for block in document.blocks():
        if block.kind == "table":
            cells.update(_normal(cell.text) for cell in block.cells if _normal(cell.text))
    return cells


def cell_f1(document: Document, docling_json: Path) -> float:
    expected, found = reference_cells(docling_json), parsed_cells(document)
    hits = sum((expected & found).values())
    if not expected and not found:
        return 1.0
    precision = hits / max(sum(found.values()), 1)
    recall = hits / max(sum(expected.values()), 1)
    return 0.0 if hits == 0 else 2 * precision * recall / (precision + recall)


__all__ = ["cell_f1", "document_text", "reference_text", "text_recall"]
