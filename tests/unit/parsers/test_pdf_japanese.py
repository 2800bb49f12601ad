"""Japanese PDFs as Word exports them: 第N章 / 第N条 headings in the body font, script-aware line joins, cells read
by position whatever the font, and an unruled table with its header cells apart."""

from __future__ import annotations

import pytest

from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_numbering import numbering_level
from docshelf.structure import section_paths
from docshelf.tables import table_grid
from tests.ja_pdf_fixtures import TORQUE_HEADER, TORQUE_ROWS, kitei_pdf, manual_pdf, require_cjk_font


@pytest.fixture(scope="module", autouse=True)
def _cjk_font() -> None:
    require_cjk_font()


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="ja.pdf", limits=ParseLimits())


def test_chapter_and_article_lines_in_the_body_font_are_headings_at_their_levels() -> None:
    content = _parse(kitei_pdf())
    headings = [(block.text, block.level) for block in content.blocks if isinstance(block, Heading)]
    assert headings == [
        ("就業規則", 1),
        ("第1章 総則", 1),
        ("第1条（目的）", 3),
        ("第2条（適用範囲）", 3),
        ("第2章 勤務", 1),
        ("第3条（所定労働時間）", 3),
        ("第4条（休日）", 3),
    ]


def test_heading_lines_are_never_fused_into_the_body_and_every_paragraph_has_a_section() -> None:
    content = _parse(kitei_pdf())
    paragraphs = [block for block in content.blocks if isinstance(block, Paragraph)]
    assert paragraphs
    for paragraph in paragraphs:
        assert "第1章" not in paragraph.text and "（目的）" not in paragraph.text
        assert not paragraph.text.startswith(("第1条", "第2条", "第3条（", "第4条"))
    # A wrapped line that starts with a reference (`第3条に定める…`) stays in its paragraph.
    assert any("場合は、第3条に定める所定労働時間を超えて" in paragraph.text for paragraph in paragraphs)
    paths = [path for block, path in section_paths(content.blocks) if isinstance(block, Paragraph)]
    assert all(len(path) >= 2 and path[-1].startswith("第") for path in paths), paths


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("第1章 総則", 1),
        ("第１０条（懲戒）", 3),
        ("第2節 手続", 2),
        ("第3条に定める者を除く。", None),
        ("第2章の規定により", None),
    ],
)
def test_cjk_markers_and_references(text: str, level: int | None) -> None:
    assert numbering_level(text) == level


def test_line_joins_follow_the_scripts_on_both_sides() -> None:
    text = "\n".join(block.text for block in _parse(manual_pdf()).blocks if not isinstance(block, Table))
    assert "M12ボルトは規定トルクで締め付けること。" in text
    assert "気温が０°C以下のときは作業しないこと。" in text


def test_unruled_table_is_a_table_with_its_header_cells_apart() -> None:
    tables = [block for block in _parse(manual_pdf()).blocks if isinstance(block, Table)]
    torque = next(table for table in tables if "M8" in table_grid(table)[1])
    assert table_grid(torque) == [TORQUE_HEADER, *TORQUE_ROWS]
    assert torque.header_rows == 1


def test_a_cell_whose_last_character_is_in_another_font_reads_in_position_order() -> None:
    tables = [block for block in _parse(manual_pdf()).blocks if isinstance(block, Table)]
    codes = next(table for table in tables if table_grid(table)[0] == ["コード", "内容"])
    assert table_grid(codes)[1:] == [["E01", "通信エラー"], ["E02", "電源異常"]]


def test_japanese_prose_lines_set_apart_from_latin_runs_are_not_a_table() -> None:
    """Justified Japanese lines whose Latin runs stand more than a font size away from the kana before them."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    from tests.ja_pdf_fixtures import draw_mixed

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    lines = [
        ("きるパッケージについての詳しい情報は、ローカルガイド", "[4]をご覧下さい。"),
        ("パッケージに関しては、コンパニオンの本が主要な参考文", "[3]が主要な文献"),
        ("献です。この本には、数百のパッケージについての説明が", "LATEXをどのように"),
    ]
    for index, (left, right) in enumerate(lines):
        draw_mixed(pdf, 72, 700 - 16 * index, left)
        draw_mixed(pdf, 72 + 29 * 10.5, 700 - 16 * index, right)
    pdf.showPage()
    pdf.save()
    assert not [block for block in _parse(buffer.getvalue()).blocks if isinstance(block, Table)]
