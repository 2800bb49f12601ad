from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

import pytest

from docshelf.errors import DocumentError
from docshelf.model import Block, Heading, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.sheets.delimited import choose_delimiter, parse
from docshelf.tables import table_grid

from .sheet_measures import cell_f1, reference_text, text_recall

if TYPE_CHECKING:
    from pathlib import Path


def _table(data: bytes, filename: str = "f.csv") -> Table:
    tables = [b for b in parse(data, filename=filename, limits=ParseLimits()).blocks if isinstance(b, Table)]
    assert len(tables) == 1
    return tables[0]


@pytest.mark.parametrize(
    ("sample", "expected"),
    [
        ("a,b,c\n1,2,3\n", ","),
        ("a;b;c\n1,5;2,5;3\n", ";"),
        ("a\tb\n1\t2\n", "\t"),
        ("a|b|c\nx|y|z\n", "|"),
        ('name,note\nann,"one; two; three"\nbob,"x; y"\n', ","),
        ("single column\nvalue\n", ","),
    ],
)
def test_delimiter_choice(sample: str, expected: str) -> None:
    assert choose_delimiter(sample) == expected


def test_quoted_delimiters_multiline_fields_and_ragged_rows() -> None:
    data = b'id,comment,score\n1,"a, b",3\n2,"line one\nline two",4\n3,short\n'
    table = _table(data)
    assert table.header_rows == 1
    assert table_grid(table) == [
        ["id", "comment", "score"],
        ["1", "a, b", "3"],
        ["2", "line one\nline two", "4"],
        ["3", "short", ""],
    ]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending_with_a_quoted_line_break(newline: bytes) -> None:
    data = b'id,comment,score\n1,"a, b",3\n2,"line one\nline two",4\n3,short\n'.replace(b"\n", newline)
    assert table_grid(_table(data)) == [
        ["id", "comment", "score"],
        ["1", "a, b", "3"],
        ["2", "line one\nline two", "4"],  # a cell's line breaks are normalised
        ["3", "short", ""],
    ]


@pytest.mark.parametrize(
    ("text", "encoding"),
    [("Stadt;Café\nKöln;Crème\n", "utf-16"), ("Stadt;Café\nKöln;Crème\n", "utf-8-sig"),
     ("名前,都市\n山田,東京\n", "shift_jis"),
     ("名称,城市,说明\n张三,北京,这是一个测试文件\n李四,上海,我们需要检测编码\n", "gb18030"),
     ("Stadt;Café\nKöln;Crème brûlée\nZürich;Käse\n", "cp1252")],
)  # fmt: skip
def test_encodings(text: str, encoding: str) -> None:
    data = text.encode(encoding)
    if encoding == "utf-16":
        assert data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE)
    expected = [line.split(";" if ";" in line else ",") for line in text.strip().split("\n")]
    assert table_grid(_table(data)) == expected


def test_title_row_above_header_in_tsv() -> None:
    blocks = parse(b"Cups\t\t\nTeam\tCity\tWins\nBlues\tSTL\t1\n", filename="c.tsv", limits=ParseLimits()).blocks
    assert blocks[0] == Heading(text="Cups", level=1, page=1)
    assert isinstance(blocks[1], Table) and blocks[1].header_rows == 1
    assert table_grid(blocks[1]) == [["Team", "City", "Wins"], ["Blues", "STL", "1"]]


def test_numeric_first_row_is_not_a_header_and_one_column_is_text() -> None:
    assert _table(b"1,2\n3,4\n").header_rows == 0
    blocks = parse(b"just a line\nanother line\n", filename="notes.csv", limits=ParseLimits()).blocks
    assert blocks == [Paragraph(text="just a line", page=1), Paragraph(text="another line", page=1)]


def test_large_csv_is_one_table_and_budget_truncates() -> None:
    data = ("k,v\n" + "".join(f"key{i},{i}\n" for i in range(3000))).encode()
    assert _table(data).n_rows == 3001
    content = parse(data, filename="big.csv", limits=ParseLimits(max_sheet_cells=100))
    assert any("truncated" in warning for warning in content.warnings)


def test_a_csv_over_the_cell_budget_says_which_rows_it_kept() -> None:
    data = ("k,v\n" + "".join(f"key{i},{i}\n" for i in range(9))).encode()
    content = parse(data, filename="big.csv", limits=ParseLimits(max_sheet_cells=9))
    assert content.truncation == "kept rows 1-4 of 10: over the 9-cell limit"
    assert _only_table(content.blocks).n_rows == 4  # the record the budget cut in the middle is left out whole
    whole = parse(data, filename="big.csv", limits=ParseLimits(max_sheet_cells=20))
    assert whole.truncation == "" and _only_table(whole.blocks).n_rows == 10


def _only_table(blocks: list[Block]) -> Table:
    (table,) = [block for block in blocks if isinstance(block, Table)]
    return table


CORPUS = [
    ("csv", "csv-comma-in-cell.csv"), ("csv", "csv-semicolon.csv"), ("csv", "stanley-cups-utf-16.csv"),
    ("csv", "test_latin1.csv"), ("csv", "ks_1033_data.csv"), ("csv", "easyexcel_demo_zh.csv"),
    ("tsv", "stanley-cups.tsv"), ("tsv", "stanley-cups-with-emoji.tsv"), ("tsv", "covid-qa-docs.tsv"),
]  # fmt: skip


@pytest.mark.corpus
@pytest.mark.parametrize(("folder", "name"), CORPUS)
def test_corpus_files_parse(corpus_dir: Path, folder: str, name: str) -> None:
    try:
        document = parse_bytes((corpus_dir / folder / name).read_bytes(), name)
    except DocumentError as exc:  # pragma: no cover - the message is the useful part
        pytest.fail(f"{name}: {exc.code}: {exc}")
    tables = [b for b in document.blocks() if isinstance(b, Table)]
    assert tables and all(t.n_cols >= 2 for t in tables)


@pytest.mark.corpus
def test_corpus_specifics(corpus_dir: Path) -> None:
    stanley = parse_bytes((corpus_dir / "csv" / "stanley-cups-utf-16.csv").read_bytes(), "s.csv").blocks()
    assert stanley[0] == Heading(text="Stanley Cups", level=1, page=1, order=0, tokens=stanley[0].tokens)
    ks = parse_bytes((corpus_dir / "csv" / "ks_1033_data.csv").read_bytes(), "ks.csv").blocks()
    (table,) = [b for b in ks if isinstance(b, Table)]
    assert table.n_rows > 1500 and table.n_cols == 14 and table.header_rows == 1
    assert table_grid(table)[1][4] == "RIFLE,5.56 MILLIMETER"
    latin = parse_bytes((corpus_dir / "csv" / "test_latin1.csv").read_bytes(), "l.csv").blocks()
    assert any("\ufffd" not in cell.text for b in latin if isinstance(b, Table) for cell in b.cells)
    covid = parse_bytes((corpus_dir / "tsv" / "covid-qa-docs.tsv").read_bytes(), "c.tsv").blocks()
    (docs,) = [b for b in covid if isinstance(b, Table)]
    assert max(len(cell.text) for cell in docs.cells) > 10_000


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["csv-comma-in-cell.csv", "csv-semicolon.csv"])
def test_corpus_against_groundtruth(corpus_dir: Path, name: str) -> None:
    document = parse_bytes((corpus_dir / "csv" / name).read_bytes(), name)
    reference = corpus_dir / "groundtruth" / "csv" / f"{name}.docling.json"
    recall, f1 = text_recall(document, reference_text(reference)), cell_f1(document, reference)
    print(f"{name}: text recall {recall:.3f}, cell F1 {f1:.3f}")
    assert recall >= 0.95 and f1 >= 0.9
