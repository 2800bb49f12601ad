"""The pure parts of OCR: an engine's words joined into paragraph text, and the language chosen from a first pass."""

from __future__ import annotations

from docshelf.model import Paragraph, Table
from docshelf.ocr.blocks import low_confidence_warning, ocr_blocks, ocr_paragraphs
from docshelf.ocr.grid import Grid, find_grids
from docshelf.ocr.model import OcrLine, OcrPage, OcrParagraph, OcrWord
from docshelf.ocr.script import choose_languages, first_pass_language, has_letters
from docshelf.tables import table_grid

CONFIGURED = ("eng", "chi_sim", "jpn")


def _line(top: int, *words: str, confidence: float = 0.9) -> OcrLine:
    placed = tuple(OcrWord(text, (10 * i, top, 10 * i + 9, top + 20), confidence) for i, text in enumerate(words))
    return OcrLine(placed, (0, top, 10 * len(words), top + 20))


def test_lines_join_with_spaces_and_hyphenated_words_are_rejoined() -> None:
    page = OcrPage(
        1000, 1000, (OcrParagraph((_line(0, "The", "seals", "are", "re-"), _line(25, "placed", "yearly."))),)
    )
    assert ocr_paragraphs(page, 4) == [
        Paragraph("The seals are replaced yearly.", 4, ocr=True, confidence=0.9),
    ]


def test_chinese_and_japanese_words_join_without_the_spaces_the_engine_puts_between_them() -> None:
    page = OcrPage(1000, 1000, (OcrParagraph((_line(0, "本", "季度", "报告", "TX-100"), _line(25, "型号", "。"))),))
    assert [block.text for block in ocr_paragraphs(page, 1)] == ["本季度报告 TX-100型号。"]


def test_a_blank_line_between_lines_of_one_engine_paragraph_starts_a_new_paragraph() -> None:
    lines = (_line(0, "First", "paragraph."), _line(25, "Still", "first."), _line(100, "Second", "one."))
    texts = [block.text for block in ocr_paragraphs(OcrPage(1000, 1000, (OcrParagraph(lines),)), 1)]
    assert texts == ["First paragraph. Still first.", "Second one."]


def test_a_lone_line_clearly_taller_than_the_page_s_lines_is_a_heading() -> None:
    def tall(top: int, text: str, height: int) -> OcrParagraph:
        return OcrParagraph((OcrLine((OcrWord(text, (0, top, 90, top + height), 0.9),), (0, top, 90, top + height)),))

    body = OcrParagraph((_line(300, "Body", "text", "here."), _line(325, "More", "body."), _line(350, "Last.")))
    page = OcrPage(1000, 1000, (tall(0, "Title", 40), tall(100, "Section", 28), tall(200, "Aside", 22), body))
    blocks = ocr_paragraphs(page, 1)
    assert [(type(block).__name__, block.text) for block in blocks] == [
        ("Heading", "Title"), ("Heading", "Section"), ("Paragraph", "Aside"),
        ("Paragraph", "Body text here. More body. Last."),
    ]  # fmt: skip
    assert [getattr(block, "level", None) for block in blocks] == [1, 2, None, None]


def test_confidence_is_weighted_by_characters_and_low_confidence_is_a_warning() -> None:
    words = (OcrWord("Readable", (0, 0, 80, 20), 0.9), OcrWord("x", (90, 0, 99, 20), 0.1))
    good = OcrParagraph((OcrLine(words, (0, 0, 99, 20)),))
    bad = OcrParagraph((_line(100, "smudge", confidence=0.3),))
    blocks = ocr_paragraphs(OcrPage(1000, 1000, (good, bad)), 2)
    assert [block.confidence for block in blocks] == [round((0.9 * 8 + 0.1) / 9, 3), 0.3]
    assert low_confidence_warning(blocks, 2) == (
        "page 2: OCR confidence low in 1 of 2 paragraphs (lowest 0.30); their text may be wrong"
    )
    assert low_confidence_warning(blocks[:1], 2) is None


def test_the_page_language_comes_from_its_scripts() -> None:
    assert choose_languages("Quarterly report on valves", CONFIGURED) == ("eng",)
    assert choose_languages("本季度维护报告涵盖北方工厂 TX", CONFIGURED) == ("chi_sim",)
    assert choose_languages("四半期保守報告書は北部工場のポンプ", CONFIGURED) == ("jpn",)
    assert choose_languages("Quarterly report on valves and pumps 中", CONFIGURED) == ("eng",), "a stray mark"
    assert choose_languages("", CONFIGURED) == ("jpn",), "nothing read: the model that reads every script"
    assert choose_languages("本季度报告", ("eng",)) == ("eng",), "only what is configured"
    assert choose_languages("四半期報告書は", ("eng", "chi_sim")) == ("chi_sim",)


def test_the_first_pass_reads_with_a_model_that_knows_every_configured_script() -> None:
    assert first_pass_language(CONFIGURED) == "jpn"
    assert first_pass_language(("eng", "chi_sim")) == "chi_sim"
    assert first_pass_language(("eng", "deu")) is None, "Latin letters only: read with both at once"
    assert first_pass_language(("chi_sim",)) is None


def test_words_inside_a_grid_become_its_cells_where_the_engine_read_the_first_of_them() -> None:
    grid = Grid(rows=(100.0, 150.0, 200.0), cols=(0.0, 100.0, 200.0))

    def word(text: str, x: int, y: int) -> OcrWord:
        return OcrWord(text, (x, y, x + 20, y + 20), 0.9)

    intro = OcrParagraph((OcrLine((word("Intro", 0, 0),), (0, 0, 20, 20)),))
    cells = OcrParagraph((
        OcrLine((word("Part", 10, 110), word("Price", 110, 110)), (10, 110, 130, 130)),
        OcrLine((word("TX", 10, 160), word("189", 110, 160)), (10, 160, 130, 180)),
    ))  # fmt: skip
    outro = OcrParagraph((OcrLine((word("Done", 0, 300),), (0, 300, 20, 320)),))
    blocks = ocr_blocks(OcrPage(1000, 1000, (intro, cells, outro)), [grid], 5)
    assert [type(block).__name__ for block in blocks] == ["Paragraph", "Table", "Paragraph"]
    table = blocks[1]
    assert isinstance(table, Table) and table.ocr and table.page == 5 and table.confidence == 0.9
    assert table_grid(table) == [["Part", "Price"], ["TX", "189"]]


def test_ruling_lines_of_a_rendered_table_make_one_grid_and_text_makes_none() -> None:
    from tests.support.scans import PARAGRAPHS, degrade, render_page, render_table_page

    rows = [["a", "b", "c"]] * 4
    for page in (render_table_page("before", rows, "after"), degrade(render_table_page("before", rows, "after"))):
        (grid,) = find_grids(page)
        assert (len(grid.rows), len(grid.cols)) == (5, 4)
    assert find_grids(render_page(PARAGRAPHS["eng"] * 3, "eng")) == []


def test_a_first_pass_of_marks_and_digits_has_no_letters() -> None:
    assert not has_letters("") and not has_letters("|— 12 .. 3 %")
    assert has_letters("a") and has_letters("维") and has_letters("カ") and has_letters("Ü")
