"""XLS cannot be generated here (no BIFF writer is a dependency); the typed layout is shared with XLSX and
tested there, so these tests cover the BIFF reading on the real corpus and the error paths."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from docshelf.errors import CorruptDocumentError, EmptyDocumentError
from docshelf.model import Heading, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.sheets.xls import parse
from docshelf.tables import table_grid

from .sheet_measures import cell_f1, reference_text, text_recall

if TYPE_CHECKING:
    from pathlib import Path


def test_ole_garbage_is_corrupt() -> None:
    data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00\x01" * 300
    with pytest.raises(CorruptDocumentError):
        parse(data, filename="broken.xls", limits=ParseLimits())


def test_tab_separated_text_named_xls_is_read_as_text() -> None:
    content = parse(b"Name\tQty\nbolt\t4\n", filename="export.xls", limits=ParseLimits())
    (table,) = [block for block in content.blocks if isinstance(block, Table)]
    assert table_grid(table) == [["Name", "Qty"], ["bolt", "4"]]


@pytest.mark.corpus
def test_corpus_legacy_sample_layout(corpus_dir: Path) -> None:
    document = parse_bytes((corpus_dir / "xls" / "legacy_sample.xls").read_bytes(), "legacy_sample.xls")
    blocks = document.blocks()
    assert [(b.text, b.level) for b in blocks if isinstance(b, Heading)] == [
        ("Duck Observations", 1),
        ("Number of freshwater ducks per year", 2),
    ]
    (table,) = [b for b in blocks if isinstance(b, Table)]
    assert table.header_rows == 1
    assert table_grid(table)[:2] == [["Year", "Freshwater Ducks"], ["2019", "120"]]
    reference = corpus_dir / "groundtruth" / "xls" / "legacy_sample.xls.docling.json"
    recall, f1 = text_recall(document, reference_text(reference)), cell_f1(document, reference)
    print(f"legacy_sample.xls: text recall {recall:.3f}, cell F1 {f1:.3f}")
    assert recall >= 0.95 and f1 >= 0.9


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "sheets"),
    [("tests-example.xls", 3), ("profiles.xls", 5), ("biff4_no_format_no_window2.xls", 1), ("easyexcel_t01_zh.xls", 1)],
)
def test_corpus_workbooks_parse(corpus_dir: Path, name: str, sheets: int) -> None:
    document = parse_bytes((corpus_dir / "xls" / name).read_bytes(), name)
    assert len(document.pages) == sheets
    assert any(block.kind == "table" for block in document.blocks())


@pytest.mark.corpus
def test_corpus_merged_cells_in_biff8(corpus_dir: Path) -> None:
    document = parse_bytes((corpus_dir / "xls" / "easyexcel_t01_zh.xls").read_bytes(), "t01.xls")
    text = " ".join(block.text for block in document.blocks() if not isinstance(block, Table))
    assert "紧密产品同步执行导入模板" in text


@pytest.mark.corpus
def test_corpus_corrupt_workbook(corpus_dir: Path) -> None:
    with pytest.raises(CorruptDocumentError):
        parse_bytes((corpus_dir / "xls" / "corrupted_error.xls").read_bytes(), "corrupted_error.xls")


@pytest.mark.corpus
def test_corpus_excel95_sheet_without_cells_is_empty(corpus_dir: Path) -> None:
    # Its only sheet holds formatting and a picture but no cell values (checked with xlrd and `strings`).
    with pytest.raises(EmptyDocumentError):
        parse_bytes((corpus_dir / "xls" / "testEXCEL_95.xls").read_bytes(), "testEXCEL_95.xls")
