"""The numbering recogniser (structure.py): which lines are headings, at what level, and what stays text."""

from __future__ import annotations

import pytest

from docshelf.model import Block, Heading, Paragraph
from docshelf.structure import numbered_headings, numbering_heading_level, numbering_mark


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("1.2.3 Scope of work", 3),
        ("4 Results", 1),
        ("Chapter 4 The end", 1),
        ("CHAPTER IV", 1),
        ("第一章 总则", 1),
        ("第一节 概述", 2),
        ("第1節 概要", 2),
        ("第1章 総則", 1),
        ("第１章　総則", 1),  # full-width digit and ideographic space
        ("第十二章 附則", 1),
        ("第1章総則", 1),
        ("第3条（目的）", 3),
        ("第１０条（懲戒）", 3),
        ("第3条の2（特例）", 3),
        ("第 3 章", 1),
        ("１．１ 所定労働時間", 2),
        ("１．１　所定労働時間", 2),
        ("2.3.1 Wiring", 3),
        ("一、总体要求", 2),
        ("（一）工作目标", 3),
        ("(1) 始業時刻", 3),
        ("① 申請書の提出", 4),
    ],
)
def test_numbered_heading_lines_have_their_level(line: str, level: int) -> None:
    assert numbering_heading_level(line) == level


@pytest.mark.parametrize(
    "line",
    [
        "第3条に定める手続による。",  # a reference, not a heading
        "第3条の規定にかかわらず、会社は…",
        "第2章第1節の手続",
        "第1章 総則 ……… 3",  # a table of contents
        "第1章 総則.......3",
        "1. install the package",
        "1.5 million people live there",
        "2 4 0.923 0.945",
        "5日とする。",
        "Section 3 describes the method",
        "Section 2, certain operations",
        "Plain sentence",
        "(1) 会社の名誉や信用を損なう行為をしないこと。",  # a list item that is a sentence
        "一、本规定自发布之日起施行。",
        "14 March 2023",  # a date: its day numbers no section
        "3 Jan. 2020",
        "14. März 2023",
        "",
    ],
)
def test_references_sentences_and_lists_are_no_headings(line: str) -> None:
    assert numbering_heading_level(line) is None


def test_a_bare_number_is_refused_when_dotted_numbers_are_not_allowed() -> None:
    assert numbering_heading_level("4 Results", allow_dotted=False) is None
    assert numbering_heading_level("4.1 Results", allow_dotted=False) == 2
    assert numbering_heading_level("１．１ 所定労働時間", allow_dotted=False) == 2


def test_an_article_line_with_its_text_is_split_into_heading_and_body() -> None:
    mark = numbering_mark("第１０条（懲戒）従業員が規則に違反したときは…懲戒する。")
    assert mark is not None
    assert (mark.heading, mark.body) == ("第１０条（懲戒）", "従業員が規則に違反したときは…懲戒する。")
    statute = numbering_mark("第一条　この法律は、国民の健康を守る。")
    assert statute is not None and (statute.heading, statute.body) == ("第一条", "この法律は、国民の健康を守る。")
    assert numbering_heading_level("第１０条（懲戒）従業員が規則に違反したときは懲戒する。") is None


def _kinds(blocks: list[Heading | Paragraph]) -> list[tuple[str, str, int | None]]:
    return [(b.kind, b.text, b.level if isinstance(b, Heading) else None) for b in blocks]


def test_levels_come_from_the_kinds_present_in_the_document() -> None:
    blocks = [
        Paragraph("第1章 総則", 1),
        Paragraph("第1条（目的）", 1),
        Paragraph("この規則は、従業員の就業に関する事項を定める。", 1),
        Paragraph("１．１ 所定労働時間", 1),
        Paragraph("所定労働時間は1日8時間とする。", 1),
        Paragraph("第2章 勤務", 1),
    ]
    result = numbered_headings(blocks)
    assert [(b.text, b.level) for b in result if isinstance(b, Heading)] == [
        ("第1章 総則", 1),
        ("第1条（目的）", 2),
        ("１．１ 所定労働時間", 3),
        ("第2章 勤務", 1),
    ]


def test_a_run_of_marks_with_nothing_between_is_a_list_or_a_contents_page() -> None:
    blocks = [
        Paragraph("第1章 総則", 1),
        Paragraph("第2章 勤務", 1),
        Paragraph("第3章 休暇", 1),
        Paragraph("(1) 日曜日", 1),
        Paragraph("(2) 土曜日", 1),
        Paragraph("第1章 総則", 2),
        Paragraph("この規則は、従業員に適用する。", 2),
    ]
    result = numbered_headings(blocks)
    assert [(b.text, b.page) for b in result if isinstance(b, Heading)] == [("第1章 総則", 2)]
    assert len(result) == len(blocks)


def test_lines_of_one_paragraph_split_at_their_headings() -> None:
    text = "第1章 総則\n第1条（目的）\nこの規則は、従業員に適用する。\n第2条（定義）従業員とは、社員をいう。"
    result = numbered_headings([Paragraph(text, 1)])
    assert _kinds(result) == [  # type: ignore[arg-type]
        ("heading", "第1章 総則", 1),
        ("heading", "第1条（目的）", 2),
        ("paragraph", "この規則は、従業員に適用する。", None),
        ("heading", "第2条（定義）", 2),
        ("paragraph", "従業員とは、社員をいう。", None),
    ]


def test_wrapped_western_prose_is_not_split_at_a_line_starting_with_a_number() -> None:
    text = "Responses were collected over the period and\n69. Responses were analyzed with the package"
    assert numbered_headings([Paragraph(text, 1)]) == [Paragraph(text, 1)]


def test_documents_whose_headings_are_numbered_keep_them_alone() -> None:
    """A styled document's other numbered lines are its table of contents, a cover, cross-references."""
    blocks: list[Block] = [
        Paragraph("Chapter 13", 1),
        Heading("CHAPTER 1 - INTRODUCTION", 1, 2),
        Paragraph("CHAPTER 2 - APPOINTMENT", 2),
        Paragraph("Text.", 2),
    ]
    assert numbered_headings(blocks) == blocks


def test_numbered_lines_nest_below_an_unnumbered_title_heading() -> None:
    blocks: list[Block] = [Heading("就業規則", 1, 1), Paragraph("第1章 総則", 1), Paragraph("本文。", 1)]
    result = numbered_headings(blocks)
    assert [(b.text, b.level) for b in result if isinstance(b, Heading)] == [("就業規則", 1), ("第1章 総則", 2)]


def test_list_items_and_code_are_no_headings_unless_a_chapter_marker_labels_the_item() -> None:
    blocks: list[Block] = [
        Paragraph("1.1 Setup", 1, list_level=0),
        Paragraph("Run it.", 1),
        Paragraph("1.1 Setup", 1, code=True),
        Paragraph("第1章 総則", 1, list_level=0),  # Word's multilevel list labelled 第%1章
        Paragraph("この規則は…。", 1),
    ]
    result = numbered_headings(blocks)
    assert result[:3] == blocks[:3]
    assert result[3] == Heading("第1章 総則", 1, 1)


def test_a_chinese_notice_in_plain_text_has_its_chapters_sections_and_enumerations() -> None:
    from docshelf.parsers.markup.text import text_blocks

    text = (
        "第一章 总则\n\n第一节 目的\n本办法用于规范员工考勤管理。\n\n"
        "一、适用范围\n本办法适用于公司全体员工。\n\n（一）正式员工\n按月统计出勤。\n\n（二）实习人员\n按周统计出勤。\n\n"
        "二、本办法自发布之日起施行。"
    )
    headings = [(b.text, b.level) for b in text_blocks(text) if isinstance(b, Heading)]
    assert headings == [
        ("第一章 总则", 1),
        ("第一节 目的", 2),
        ("一、适用范围", 3),
        ("（一）正式员工", 4),
        ("（二）实习人员", 4),
    ]


def test_a_statute_caption_on_the_line_above_its_article_is_the_article_title() -> None:
    parts = [
        "第一章 総則",
        "（目的）\n第一条　この法律は、健康を守ることを目的とする。",
        "（定義）\n第二条　この法律で…をいう。",
    ]
    blocks = numbered_headings([Paragraph(part, 1) for part in parts])
    assert [(b.kind, b.text) for b in blocks if isinstance(b, Heading | Paragraph)] == [
        ("heading", "第一章 総則"),
        ("heading", "第一条（目的）"),
        ("paragraph", "この法律は、健康を守ることを目的とする。"),
        ("heading", "第二条（定義）"),
        ("paragraph", "この法律で…をいう。"),
    ]


def _headings(lines: list[str]) -> list[str]:
    blocks = numbered_headings([Paragraph(line, 1) for line in lines])
    return [block.text for block in blocks if block.kind == "heading"]


def test_a_line_that_only_starts_with_a_number_is_no_heading() -> None:
    letter = ["ACME Ltd", "10 Downing Street", "London SW1A 2AA", "Dear Ms Smith,", "Your rent will rise."]
    assert _headings(letter) == []
    assert _headings(["Call us.", "24 Hour Service", "We answer.", "365 Days Open", "Always."]) == []


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["1 Introduction", "Text.", "2 Methods", "Text."], ["1 Introduction", "2 Methods"]),
        (["Title", "1 Introduction", "Only one section."], ["1 Introduction"]),
        (["3 Methods", "Text.", "3.2 Data", "Text."], ["3 Methods", "3.2 Data"]),
        (["2.3 Results", "Text.", "2.4 Discussion", "Text."], ["2.3 Results", "2.4 Discussion"]),
        (["4 Results", "Text.", "4.1.3 Setup", "Text."], ["4 Results"]),
    ],
)
def test_a_numbered_heading_has_a_neighbour_in_its_numbering(lines: list[str], expected: list[str]) -> None:
    assert _headings(lines) == expected
