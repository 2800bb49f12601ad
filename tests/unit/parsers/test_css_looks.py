"""Bold and size as style sheets and style attributes declare them (parsers/markup/css_looks.py)."""

from __future__ import annotations

import pytest
from lxml import html

from docshelf.parsers.markup.css_looks import MAX_RULES_PER_SELECTOR, MAX_SHEET_CHARS, ClassStyles, declared
from docshelf.parsers.markup.html_looks import DEFAULT, element_set, page_sheet


@pytest.mark.parametrize(
    ("declarations", "expected"),
    [
        ("font-weight:700;font-size:14pt", (True, (14.0, "pt"))),
        ("font-weight: 400; font-size: 1.5em", (False, (1.5, "em"))),
        ("FONT-WEIGHT: Bold; font-size: 120%", (True, (120.0, "%"))),
        ("font-weight: bold !important", (True, None)),
        ("font-size: x-large", (None, (18.0, "pt"))),
        ("font-size: larger", (None, (120.0, "%"))),
        ("font: italic bold 16px/1.2 Georgia, serif", (True, (16.0, "px"))),
        ("font-weight: bold; font: 12pt Arial", (False, (12.0, "pt"))),  # the shorthand resets the weight
        ("font: Arial", (None, None)),  # no size: an invalid shorthand, ignored
        ("font-size: -3pt; font-weight: heavy; color: red", (None, None)),
        ("font-size: 11pt; font-size: 16pt; font-weight: 600", (True, (16.0, "pt"))),  # the last one wins
        ('font-family: "a;b}"; font-weight: bold', (True, None)),
    ],
)
def test_declared(declarations: str, expected: tuple[object, object]) -> None:
    assert declared(declarations) == expected


def test_rules_by_type_class_and_both_apply_by_specificity_then_order() -> None:
    sheet = ClassStyles()
    sheet.read(
        """/* a comment { } */ p { font-size: 11pt }
        .big, h9 { font-size: 16pt } .strong { font-weight: bold; content: "}" }
        @media screen { p.title { font-size: 20pt } }
        .small { font-size: 9pt } div .big, .big:hover, .a.b, [lang] { font-weight: bold }
        ol { margin: 0 }"""
    )
    assert sheet.matching("p", "") == [(None, (11.0, "pt"))]
    # type < class; among classes, the later rule wins whatever the order in the class attribute
    assert sheet.matching("p", "small big") == [(None, (11.0, "pt")), (None, (16.0, "pt")), (None, (9.0, "pt"))]
    assert sheet.matching("p", "title big")[-1] == (None, (20.0, "pt"))  # p.title is more specific
    assert sheet.matching("span", "title strong") == [(True, None)]  # p.title needs a <p>
    assert sheet.matching("ol", "") == []  # declares neither
    assert "hover" not in str(sheet.by_class) and "b" not in sheet.by_class  # selectors needing more are skipped


def test_a_sheet_that_never_closes_or_repeats_itself_is_bounded() -> None:
    sheet = ClassStyles()
    sheet.read(".c1 { font-weight: bold } .c2 { font-size: 14pt; " + "{ (" * 20_000)
    assert sheet.matching("p", "c1") == [(True, None)]
    sheet = ClassStyles()
    sheet.read(".c { font-weight: bold }" * (MAX_RULES_PER_SELECTOR * 4))
    assert len(sheet.by_class["c"]) == MAX_RULES_PER_SELECTOR
    filler = "/*" + "x" * MAX_SHEET_CHARS + "*/"
    root = html.fromstring(f"<html><head><style>{filler}</style><style>.c{{font-weight:bold}}</style></head></html>")
    assert not page_sheet(root)  # past the characters read


def test_an_element_takes_its_tag_then_its_rules_then_its_style() -> None:
    root = html.fromstring(
        """<html><head><style>.h { font-size: 1.5em; font-weight: bold } .plain { font-weight: normal }</style>
        <link rel="stylesheet" href="book.css"></head><body><p class="h">A</p><p>B</p></body></html>"""
    )
    sheet = page_sheet(root, {"book.css": b"p { font-size: 10pt }"}.get)
    heading, paragraph = root.findall(".//p")
    assert element_set(paragraph, "p", DEFAULT, sheet) == (False, 10.0)
    assert element_set(heading, "p", DEFAULT, sheet) == (True, 18.0)  # the class wins; 1.5em of the parent's 12pt
    bold = html.fromstring('<b class="plain" style="font-size:20px">x</b>')
    assert element_set(bold, "b", DEFAULT, sheet) == (False, 15.0)
    assert element_set(bold, "b", DEFAULT) == (True, 15.0)  # without the page's rules
    assert page_sheet(root).matching("p", "") == []  # a web page's linked sheet is a URL, never fetched


def test_a_books_shared_sheets_are_read_once_and_an_elements_rules_matched_once() -> None:
    chapter = "<html><head><link rel='stylesheet' href='book.css'></head><body><p class='h'>A</p></body></html>"
    linked = {"book.css": b".h { font-weight: bold } p { font-size: 10pt }"}.get
    first, second = page_sheet(html.fromstring(chapter), linked), page_sheet(html.fromstring(chapter), linked)
    assert first is second  # one ClassStyles for the chapters linking the same sheets
    assert first.matching("p", "h") is first.matching("p", "h") == [(None, (10.0, "pt")), (True, None)]
