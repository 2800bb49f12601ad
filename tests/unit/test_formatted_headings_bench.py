"""The formatted-headings bench rewrites styled headings as a user who formats by hand writes them."""

from __future__ import annotations

import io

import docx

from bench.formatted_headings_bench import hand_formatted, headings
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
