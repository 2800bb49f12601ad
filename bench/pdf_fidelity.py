#!/usr/bin/env python3
"""PDF parse fidelity against the reference conversions in ../shared/corpus/groundtruth (docling's Markdown and JSON).

    .venv/bin/python -m bench.pdf_fidelity [--source DIR] [FILE.pdf ...]

Per file and overall (the mean over files), on the words of the text (NFKC, case-folded; a CJK character is a
word; Markdown markup, HTML comments and image placeholders of the reference removed; table cells included):
- recall: the share of the reference's words (as a multiset) that the parse holds;
- precision: the share of the parse's words that the reference holds (running headers, chart labels, text
  fused from elsewhere count against it);
- order: the longest common subsequence of the two word sequences over the words they share (1.0 when every
  shared word comes in the reference's order; a column read in the wrong place or a footnote inside a paragraph
  lowers it);
- tables: F1 of ICDAR-style cell adjacency relations (each non-empty cell with its nearest non-empty neighbour to
  the right and below) over the document's tables, page by page; files whose reference has no table are left out
  of the mean.
`--source` points at another copy of layers/docshelf (a checkout of main, say) to measure two parsers in one run.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GROUNDTRUTH = REPO.parent / "shared" / "corpus" / "groundtruth" / "pdf"
CORPUS_PDF = REPO.parent / "shared" / "corpus" / "pdf"

_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MD_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_MD_MARKUP = re.compile(r"[*_~`#>|]+|^\s*(?:[-+]|\d+\.)\s+|^\s*:?-{3,}:?\s*$", re.M)

Relation = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Fidelity:
    recall: float
    precision: float
    order: float
    tables: float | None  # None: the reference has no table


def words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def reference_words(markdown: str) -> list[str]:
    text = _MD_MARKUP.sub(" ", _MD_LINK_TARGET.sub("] ", _COMMENT.sub(" ", markdown)))
    return words(html.unescape(text.replace("\\_", "_")))


def lcs_length(a: list[str], b: list[str]) -> int:
    """Longest common subsequence by bit-parallel rows (Allison-Dix / Hyyrö): O(len(a) * len(b) / word size)."""
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for index, token in enumerate(a):
        masks[token] = masks.get(token, 0) | (1 << index)
    row = 0
    for token in b:
        match = masks.get(token, 0)
        if match:
            x = match | row
            row = x & ((x - ((row << 1) | 1)) ^ x)
    return bin(row).count("1")


def text_scores(reference: list[str], ours: list[str]) -> tuple[float, float, float]:
    shared = Counter(reference) & Counter(ours)
    matched = sum(shared.values())
    recall = matched / max(1, len(reference))
    precision = matched / max(1, len(ours))
    keep = set(shared)
    order = lcs_length([w for w in reference if w in keep], [w for w in ours if w in keep]) / max(1, matched)
    return recall, precision, order


def grid_relations(grid: list[list[str]]) -> Counter[Relation]:
    cells = [[" ".join(words(text)) for text in row] for row in grid]
    relations: Counter[Relation] = Counter()
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            if not text:
                continue
            right = next((other for other in row[c + 1 :] if other and other != text), None)
            below = next((line[c] for line in cells[r + 1 :] if c < len(line) and line[c] and line[c] != text), None)
            if right is not None:
                relations[(text, right, "right")] += 1
            if below is not None:
                relations[(text, below, "below")] += 1
    return relations


def reference_grids(reference: dict[str, Any]) -> list[tuple[int, list[list[str]]]]:
    grids: list[tuple[int, list[list[str]]]] = []
    for table in reference.get("tables", []):
        data = table["data"]
        grid = [["" for _ in range(data["num_cols"])] for _ in range(data["num_rows"])]
        for cell in data["table_cells"]:
            for row in range(cell["start_row_offset_idx"], cell["end_row_offset_idx"]):
                for col in range(cell["start_col_offset_idx"], cell["end_col_offset_idx"]):
                    grid[row][col] = cell["text"]
        grids.append((table["prov"][0]["page_no"] if table["prov"] else 0, grid))
    return grids


def table_f1(ours: list[tuple[int, list[list[str]]]], reference: list[tuple[int, list[list[str]]]]) -> float | None:
    if not reference:
        return None
    found: Counter[tuple[int, Relation]] = Counter()
    for page, grid in ours:
        found.update({(page, rel): n for rel, n in grid_relations(grid).items()})
    expected: Counter[tuple[int, Relation]] = Counter()
    for page, grid in reference:
        expected.update({(page, rel): n for rel, n in grid_relations(grid).items()})
    matched = sum((found & expected).values())
    precision, recall = matched / max(1, found.total()), matched / max(1, expected.total())
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def measure(path: Path) -> Fidelity | None:
    """The parse of one corpus PDF against its reference (None when it has no reference)."""
    from docshelf.parsers.base import ParseLimits
    from docshelf.parsers.pdf.pdf import parse
    from docshelf.tables import table_grid

    markdown_file = GROUNDTRUTH / f"{path.name}.docling.md"
    json_file = GROUNDTRUTH / f"{path.name}.docling.json"
    if not markdown_file.is_file() or not json_file.is_file():
        return None
    content = parse(path.read_bytes(), filename=path.name, limits=ParseLimits())
    texts: list[str] = []
    grids: list[tuple[int, list[list[str]]]] = []
    for block in content.blocks:
        if block.kind == "table":
            grid = table_grid(block)
            grids.append((block.page, grid))
            texts.extend([block.caption] if block.caption else [])  # rendered above the grid, as Markdown shows it
            texts.extend(" ".join(row) for row in grid)
        else:
            texts.append(block.text)
    recall, precision, order = text_scores(
        reference_words(markdown_file.read_text(encoding="utf-8")), words("\n".join(texts))
    )
    reference = json.loads(json_file.read_text(encoding="utf-8"))
    return Fidelity(recall, precision, order, table_f1(grids, reference_grids(reference)))


def reference_files() -> list[Path]:
    return sorted(
        CORPUS_PDF / path.name.removesuffix(".docling.json")
        for path in GROUNDTRUTH.glob("*.docling.json")
        if (CORPUS_PDF / path.name.removesuffix(".docling.json")).is_file()
    )


def overall(results: dict[str, Fidelity]) -> Fidelity:
    values = list(results.values())
    tables = [value.tables for value in values if value.tables is not None]
    return Fidelity(
        sum(value.recall for value in values) / len(values),
        sum(value.precision for value in values) / len(values),
        sum(value.order for value in values) / len(values),
        sum(tables) / len(tables) if tables else None,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--source", type=Path, default=REPO / "layers" / "docshelf")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.source))
    files = args.files or reference_files()
    if not files:
        print(f"skipped: no reference conversions under {GROUNDTRUTH}")
        return
    results = {path.name: result for path in files if (result := measure(path)) is not None}
    print(f"{'file':<28} {'recall':>7} {'precision':>10} {'order':>7} {'tables':>7}")
    for name, result in [*results.items(), ("overall (mean)", overall(results))]:
        tables = f"{result.tables:>7.3f}" if result.tables is not None else f"{'-':>7}"
        print(f"{name:<28} {result.recall:>7.3f} {result.precision:>10.3f} {result.order:>7.3f} {tables}")


if __name__ == "__main__":
    main()
