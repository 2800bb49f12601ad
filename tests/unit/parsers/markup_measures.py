"""Quality measures against the docling reference conversions in corpus/groundtruth (Markdown files)."""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter
from pathlib import Path

import lxml.html
from lxml import etree

from docshelf.model import Document
from docshelf.tables import table_grid

_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\W_]+", re.UNICODE)
_MD_LINK_TARGET = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)")
_MD_MARKUP = re.compile(r"<!--.*?-->|[*_~`#>]+|^\s*(?:[-+]|\d+\.)\s+|\[[ xX]\]", re.MULTILINE)
_TABLE_RULE = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$")


def words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def groundtruth_markdown(corpus_dir: Path, relative: str) -> str:
    return (corpus_dir / "groundtruth" / f"{relative}.docling.md").read_text(encoding="utf-8")


def markdown_plain_text(markdown: str) -> str:
    """The words of a Markdown text: markup and link targets removed, character references (`&amp;`) decoded."""
    return html.unescape(_MD_MARKUP.sub(" ", _MD_LINK_TARGET.sub("] ", markdown)))


_LINK_ONLY_ITEM = re.compile(r"^\s*[-*+]\s+(\[[ xX]\]\s+)?(\[[^\]]*\]\([^)]*\)\s*)*\S{0,40}$")


def without_link_menus(markdown: str) -> str:
    """The reference minus list items that are only links or toggles (navigation menus docling keeps)."""
    return "\n".join(line for line in markdown.splitlines() if not _LINK_ONLY_ITEM.match(line))


def markdown_headings(markdown: str) -> list[str]:
    return [line.lstrip("#").strip() for line in markdown.splitlines() if re.match(r"#{1,6}\s", line)]


def markdown_table_cells(markdown: str) -> list[str]:
    cells: list[str] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("|") and not _TABLE_RULE.match(stripped):
            cells.extend(cell.strip() for cell in stripped.strip("|").split("|"))
    return cells


def document_text(document: Document) -> str:
    parts: list[str] = []
    for block in document.blocks():
        if block.kind == "table":
            parts.extend(cell.text for cell in block.cells)
        else:
            parts.append(block.text)
    return "\n".join(parts)


def document_headings(document: Document) -> list[str]:
    return [heading.text for heading in document.outline()]


def document_table_cells(document: Document) -> list[str]:
    return [text for block in document.blocks() if block.kind == "table" for row in table_grid(block) for text in row]


def recall(reference: list[str], candidate: list[str]) -> float:
    """Share of the reference multiset found in the candidate multiset (1.0 for an empty reference)."""
    if not reference:
        return 1.0
    wanted, found = Counter(reference), Counter(candidate)
    return sum(min(count, found[item]) for item, count in wanted.items()) / sum(wanted.values())


def text_recall(reference_text: str, candidate_text: str) -> float:
    return recall(words(reference_text), words(candidate_text))


def heading_recall(reference: list[str], candidate: list[str]) -> float:
    return recall([" ".join(words(text)) for text in reference], [" ".join(words(text)) for text in candidate])


def cell_f1(reference: list[str], candidate: list[str]) -> float:
    ref = [" ".join(words(markdown_plain_text(text))) for text in reference]
    cand = [" ".join(words(text)) for text in candidate]
    ref = [text for text in ref if text]
    cand = [text for text in cand if text]
    if not ref and not cand:
        return 1.0
    r, p = recall(ref, cand), recall(cand, ref)
    return 0.0 if r + p == 0 else 2 * r * p / (r + p)


# What the issue requires an HTML parser to drop, by element name and ARIA role, whatever the reference keeps.
_NAVIGATION_TAGS = ("nav", "footer", "aside")
_NAVIGATION_ROLES = ("navigation", "search", "menubar", "menu", "toolbar")


def html_navigation(html: bytes) -> tuple[str, list[str]]:
    """The text and the table cell texts inside the navigation of an HTML page (outermost elements only)."""
    root = lxml.html.fromstring(html)
    roles = " or ".join(f"@role='{role}'" for role in _NAVIGATION_ROLES)
    tags = " or ".join(f"self::{tag}" for tag in _NAVIGATION_TAGS)
    query = f"//*[{tags} or {roles}][not(ancestor::*[{tags} or {roles}])]"
    matches = root.xpath(query)
    found = [element for element in matches if isinstance(element, etree._Element)] if isinstance(matches, list) else []
    text = "\n".join(" ".join(map(str, element.itertext())) for element in found)
    cells = [_cell_words(cell) for element in found for cell in element.iter("td", "th")]
    return text, cells


def _cell_words(cell: etree._Element) -> str:
    """A cell's text and its images' alt texts, as docling writes them."""
    alts = cell.xpath(".//img/@alt")
    return " ".join([*map(str, cell.itertext()), *(map(str, alts) if isinstance(alts, list) else ())])


def without(reference: list[str], excluded: list[str]) -> list[str]:
    """The reference multiset minus the excluded one (each excluded item removes one occurrence)."""
    remaining = Counter(excluded)
    kept: list[str] = []
    for item in reference:
        if remaining[item] > 0:
            remaining[item] -= 1
        else:
            kept.append(item)
    return kept
