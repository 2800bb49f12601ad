from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from docshelf.parsers.pdf.pdf_bidi import (
    glyph_continuations,
    has_rtl,
    logical_line,
    rtl_letter_pairs,
    separate_directions,
    unreversed_glyphs,
)

if TYPE_CHECKING:
    from pathlib import Path

LAM_ALEF_BOX = (479.5, 705.8, 485.6, 717.5)


def test_lam_alef_glyphs_reversed_by_pdfium_are_put_back_in_logical_order() -> None:
    # "خلال" as PDFium gives it: خ, then the lam-alef glyph as alef+lam (one box), then the final lam
    boxes = [(358.5, 709.3, 366.0, 717.3), LAM_ALEF_BOX, LAM_ALEF_BOX, (345.8, 706.9, 351.6, 718.0)]
    continuations = glyph_continuations(boxes)
    assert continuations == {2}
    assert unreversed_glyphs("خالل", continuations) == "خلال"
    assert unreversed_glyphs("اإلنتاجية", {2}) == "الإنتاجية"  # lam + alef with hamza below
    assert unreversed_glyphs("x اإل y", {4}) == "x الإ y"  # positions elsewhere in the text are kept


def test_alef_lam_drawn_as_two_glyphs_is_left_alone() -> None:
    assert unreversed_glyphs("البيانات", set()) == "البيانات"  # the article: alef and lam are separate glyphs


def test_only_pairs_of_right_to_left_letters_are_glyph_candidates() -> None:
    assert rtl_letter_pairs("ab خالل 1") == [4, 5, 6]
    assert rtl_letter_pairs("office") == []
    assert unreversed_glyphs("office مكتب", {1, 2}) == "office مكتب"  # a Latin ligature (ffi) is never reordered


def test_empty_boxes_of_generated_characters_are_not_glyph_clusters() -> None:
    assert glyph_continuations([(265.1, 707.4, 265.1, 707.4), (265.1, 707.4, 265.1, 707.4)]) == set()


def test_presentation_forms_become_base_letters() -> None:
    assert logical_line("\ufefb\ufee3") == "\u0644\u0627\u0645"  # lam-alef ligature form, then meem
    assert logical_line("\ufb2a") == "\u05e9\u05c1"  # Hebrew shin with shin dot
    assert logical_line("ﬁle") == "ﬁle"  # no right-to-left text: Latin ligatures are not this module's business


def test_right_to_left_and_left_to_right_letters_that_touch_are_separated() -> None:
    assert logical_line("بلغة R وPython من") == "بلغة R و Python من"
    assert separate_directions("Pythonمن") == "Python من"
    assert separate_directions("عام 2024م") == "عام 2024م"  # digits are not letters of either direction
    assert separate_directions("مَPython") == "مَ Python"  # a combining mark stays on its letter
    assert separate_directions("שלום world") == "שלום world"


def test_has_rtl() -> None:
    assert has_rtl("abc مرحبا") and has_rtl("שלום") and has_rtl("\ufefb")
    assert not has_rtl("plain text, 中文, Ελληνικά")


@pytest.mark.corpus
def test_corpus_arabic_ligatures_read_in_logical_order(corpus_dir: Path) -> None:
    document = pdfium.PdfDocument((corpus_dir / "pdf" / "right_to_left_01.pdf").read_bytes())
    try:
        textpage = document[0].get_textpage()
        text = textpage.get_text_range(0, textpage.count_chars())
        assert len(text) == textpage.count_chars()
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))

        def box(index: int) -> tuple[float, float, float, float]:
            pdfium_c.FPDFText_GetCharBox(textpage.raw, index, left, right, bottom, top)
            return (left.value, bottom.value, right.value, top.value)

        pairs = rtl_letter_pairs(text)
        continuations = {index for index in pairs if glyph_continuations([box(index - 1), box(index)])}
        textpage.close()
    finally:
        document.close()
    fixed = unreversed_glyphs(text, continuations)
    assert len(fixed) == len(text)
    assert "المشكالت" in text and "خالل" in text  # PDFium's reversed lam-alef
    assert "المشكلات" in fixed and "خلال" in fixed and "الإنتاجية" in fixed
    assert "المشكالت" not in fixed and "اإلنتاجية" not in fixed
    assert 0 < len(continuations) < len(pairs) / 10
