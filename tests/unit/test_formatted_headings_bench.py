"""The formatted-headings bench rewrites styled headings as a user who formats by hand writes them."""

from __future__ import annotations

import io

import docx

from bench.formatted_headings_bench import hand_formatted, headings, styled_by_classes
from tests.unit.parsers.ooxml_fixtures import saved_bytes


def test_a_styled_heading_becomes_a_body_paragraph_set_bold_and_large_and_is_found_again() -> None:
    document = docx.Document()
    document.add_heading("Maintenance", level=1)
    document.add_paragraph("The pump is inspected every month; its seals are replaced when they wear.")
    data = saved_bytes(document)
    rewritten = hand_formatted(data)
    paragraph = docx.Document(io.BytesIO(rewritten)).paragraphs[0]
    assert paragraph.style is not None and paragraph.style.name == "Normal"
    assert paragraph.runs[0].bold and paragraph.runs[0].font.size is not None
    assert paragraph.runs[0].font.size.pt == 14.0  # python-docx's Heading 1
    assert headings(data, "t.docx") == headings(rewritten, "t.docx") == [("maintenance", 1)]


def test_a_page_formatted_inline_keeps_its_headings_with_the_formatting_moved_into_classes() -> None:
    prose = "The pump is inspected every month; its seals are replaced when they wear."
    page = f"""<html><body><p><font size="5"><b>Maintenance</b></font></p><p>{prose}</p>
    <p style="font-weight:bold">Daily checks</p><p>{prose}</p></body></html>""".encode()
    rewritten = styled_by_classes(page)
    assert b"<b>" not in rewritten and b"style=" not in rewritten.split(b"</head>")[1]
    assert headings(page, "t.html") == headings(rewritten, "t.html") == [("maintenance", 1), ("daily checks", 2)]
