"""CSV and TSV: decoded with decode_report, delimiter chosen from the file name and the shape of the data,
then laid out like a sheet (a title row above the header becomes a Heading; blank lines separate tables).

The delimiter is the candidate (`,` `;` tab `|`) that splits a sample of records into the most consistent
number of fields (>1); a `.tsv` name prefers tab when tab is consistent at all. csv.Sniffer is only a
tie-breaker: on its own it is easily fooled by punctuation inside quoted text.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections import Counter
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from docshelf.errors import CorruptDocumentError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.sheets.delimited_table import rectangular_table
from docshelf.parsers.sheets.sheet_grid import CellBudget, SheetGrid
from docshelf.parsers.sheets.sheet_tables import sheet_blocks
from docshelf.parsers.sheets.sheet_values import text_cell
from docshelf.parsers.textcodec import decode_report

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from docshelf.model import Block

CANDIDATE_DELIMITERS = (",", ";", "\t", "|")
SAMPLE_CHARS = 64 * 1024
SAMPLE_RECORDS = 200
MAX_FIELD_CHARS = 16 * 1024 * 1024
_BLOCK = 1 << 20
TITLE_LEVEL = 1


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    lines, sample, warnings = line_source(data)
    delimiter = choose_delimiter(sample, prefer_tab=PurePosixPath(filename).suffix.lower() in {".tsv", ".tab"})
    del sample
    budget = CellBudget(limits.max_sheet_cells)
    content = ParsedContent(blocks=[], title=PurePosixPath(filename).name, page_count=1, warnings=warnings)
    rectangle = rectangular_table(_file_records(lines(), delimiter), budget)
    if rectangle is not None:
        table, kept, total = rectangle
        if kept < total:
            _truncated(content, kept, total, budget)
        content.blocks.append(table)
        return content
    grid = _read_grid(lines(), delimiter, budget, content)
    blocks: list[Block] = sheet_blocks(grid, page=1, budget=budget, title_level=TITLE_LEVEL)
    content.blocks.extend(blocks)
    return content


def choose_delimiter(sample: str, *, prefer_tab: bool = False) -> str:
    scores = {delimiter: _consistency(sample, delimiter) for delimiter in CANDIDATE_DELIMITERS}
    if prefer_tab and scores["\t"][0] > 0:
        return "\t"
    sniffed = _sniffed(sample)
    best = max(CANDIDATE_DELIMITERS, key=lambda d: (scores[d], d == sniffed))
    if scores[best][0] == 0:
        return "\t" if prefer_tab else ","
    return best


def _consistency(sample: str, delimiter: str) -> tuple[float, int]:
    """(share of sampled records having the modal field count, that count) — zero when the count is 1."""
    lines = sample.splitlines(keepends=True)
    if len(sample) >= SAMPLE_CHARS and len(lines) > 1:
        lines = lines[:-1]  # the sample cuts the last record
    try:
        counts = [len(record) for record in _records(iter(lines), delimiter, SAMPLE_RECORDS) if any(record)]
    except csv.Error:
        return (0.0, 0)
    if not counts:
        return (0.0, 0)
    modal, frequency = Counter(counts).most_common(1)[0]
    if modal < 2:
        return (0.0, 0)
    return (round(frequency / len(counts), 2), modal)


def _sniffed(sample: str) -> str | None:
    try:
        return csv.Sniffer().sniff(sample[:8192], delimiters="".join(CANDIDATE_DELIMITERS)).delimiter
    except csv.Error:
        return None


def _records(lines: Iterator[str], delimiter: str, limit: int | None = None) -> Iterator[list[str]]:
    reader = csv.reader(lines, delimiter=delimiter, quotechar='"', doublequote=True, strict=False)
    for index, record in enumerate(reader):
        if limit is not None and index >= limit:
            return
        yield record


def line_source(data: bytes) -> tuple[Callable[[], Iterator[str]], str, list[str]]:
    """(a function giving the file's lines with their endings, one at a time, each call from the start; a sample of
    its first SAMPLE_CHARS characters; the document's warnings about its encoding). UTF-8 (the common case, BOM or
    not) is decoded line by line from the bytes, so a 100 MB file is never held as 100 MB of text beside its bytes;
    other encodings (ISO-2022-JP, 7-bit with escapes, among them), and lines ending in a lone CR, are decoded whole by
    decode_report."""
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if b"\x1b" not in data and _is_utf8(data, start) and not _lone_cr(data):
        sample = data[start : start + 4 * SAMPLE_CHARS].decode("utf-8", "ignore")[:SAMPLE_CHARS]
        return (lambda: _utf8_lines(data, start)), sample, []
    decoded = decode_report(data)
    text = decoded.text
    return (lambda: _lines(text)), text[:SAMPLE_CHARS], decoded.document_warnings()


def _is_utf8(data: bytes, start: int) -> bool:
    """Whether the bytes from `start` are UTF-8, checked a block at a time (no text of the whole file is made)."""
    if any(data.startswith(bom) for bom in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for at in range(start, len(data), _BLOCK):
            decoder.decode(view[at : at + _BLOCK])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _lone_cr(data: bytes) -> bool:
    return b"\r" in data and data.count(b"\r") != data.count(b"\r\n")


def _utf8_lines(data: bytes, start: int) -> Iterator[str]:
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        yield data[start:end].decode("utf-8")
        start = end


def _file_records(lines: Iterator[str], delimiter: str) -> Iterator[list[str]]:
    """Every record of the file, fields of up to MAX_FIELD_CHARS; malformed text is a CorruptDocumentError."""
    if csv.field_size_limit() < MAX_FIELD_CHARS:
        csv.field_size_limit(MAX_FIELD_CHARS)
    try:
        yield from _records(lines, delimiter)
    except csv.Error as exc:
        raise CorruptDocumentError(f"malformed delimited text: {exc}") from exc


def _lines(text: str) -> Iterator[str]:
    """The text's lines with their endings, one at a time: io.StringIO would copy a 100 MB file into a buffer of
    four bytes a character (bench/memory_bench.py: 807 MB peak for a 102 MB CSV). A file whose lines end in a
    lone CR goes through StringIO, whose universal newlines split at it."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        yield from io.StringIO(text, newline="")
        return
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


def _truncated(content: ParsedContent, kept: int, total: int, budget: CellBudget) -> None:
    content.truncation = f"kept rows 1-{kept:,} of {total:,}: over the {budget.limit:,}-cell limit"
    content.warnings.append(f"truncated: {content.truncation}")


def _read_grid(lines: Iterator[str], delimiter: str, budget: CellBudget, content: ParsedContent) -> SheetGrid:
    """The records as a grid. Records past the cell budget are counted, not kept, so that the document says how
    much of the file it holds (`content.truncation`); a record the budget cut in the middle is left out whole."""
    grid = SheetGrid()
    records = enumerate(_file_records(lines, delimiter))
    for row, record in records:
        cells = [(col, cell) for col, cell in enumerate(map(text_cell, record)) if cell is not None]
        if not budget.take(len(cells)):
            _truncated(content, row, row + 1 + sum(1 for _ in records), budget)
            return grid
        for col, cell in cells:
            grid.put(row, col, cell)
    return grid
