"""The slides bench's own arithmetic and decks (the PDF side needs LibreOffice and runs in `make bench`)."""

from __future__ import annotations

from pathlib import Path

from pptx import Presentation

from bench.slides_pdf_bench import make_decks, score


def test_a_paragraph_is_whole_run_together_or_split() -> None:
    wanted = [["Revenue grew", "Costs fell in every quarter", "Margins improved"]]
    got = [["Revenue grew", "Costs fell in every quarter Margins", "improved"]]
    assert score(wanted, got) == (3, 1, 1, 1)


def test_the_decks_hold_the_paragraphs_the_bench_expects_back(tmp_path: Path) -> None:
    decks = make_decks(tmp_path, 2, seed=3)
    for path, paragraphs in decks:
        read = [
            paragraph.text
            for slide in Presentation(str(path)).slides
            for shape in slide.shapes
            if shape.has_text_frame
            for paragraph in shape.text_frame.paragraphs
        ]
        assert read == paragraphs
        assert any(len(text.split()) >= 15 for text in paragraphs)  # sentences long enough to wrap
    assert decks[0][1] != decks[1][1]
