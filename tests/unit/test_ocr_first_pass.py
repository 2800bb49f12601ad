"""The language-finding first pass reads three bands of a page cut between lines, and the whole page only when the
bands hold too few letters to count."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from docshelf.ocr.blocks import SAMPLE_LETTERS, _first_pass_text
from docshelf.ocr.first_pass_sample import GAP, sampled_bands
from docshelf.ocr.model import OcrLine, OcrPage, OcrParagraph, OcrWord

LINE = 24  # a text line's height in the page below, with 12 blank rows between lines


def _page_of_lines(height: int = 1100, width: int = 800, top: int = 30) -> Image.Image:
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    for y in range(top, height - LINE, LINE + 12):
        for x in range(40, width - 60, 30):  # "words" of dark strokes, about a fifth of the page inked, as text is
            draw.rectangle((x, y, x + 8, y + LINE - 1), fill=0)
    return page


def test_the_bands_are_a_third_of_the_page_and_no_band_edge_cuts_a_line() -> None:
    page = _page_of_lines()
    bands = sampled_bands(page)
    assert bands is not None and bands.width == page.width
    assert page.height / 4 < bands.height < page.height / 2.5
    rows = np.asarray(bands).min(axis=1)
    inked = rows < 128
    # Every inked run in the stacked image is a whole line: LINE rows, never a part of one.
    runs, length = [], 0
    for ink in inked:
        if ink:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    assert runs and set(runs) == {LINE}


def test_a_page_too_short_to_cut_is_not_sampled() -> None:
    assert sampled_bands(Image.new("L", (800, 100), 255)) is None


class _Reader:
    def __init__(self, letters_in_bands: int) -> None:
        self.heights: list[int] = []
        self.letters_in_bands = letters_in_bands

    def recognise(self, image: Image.Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        self.heights.append(image.height)
        text = "a" * (self.letters_in_bands if len(self.heights) == 1 else 1000)
        word = OcrWord(text, (0, 0, image.width, image.height), 0.9)
        return OcrPage(image.width, image.height, (OcrParagraph((OcrLine((word,), word.box),)),))


def test_the_whole_page_is_read_only_when_the_bands_hold_too_few_letters() -> None:
    page = _page_of_lines()
    enough = _Reader(SAMPLE_LETTERS)
    assert _first_pass_text(enough, page, "jpn", 100) == "a" * SAMPLE_LETTERS  # type: ignore[arg-type]
    assert len(enough.heights) == 1 and enough.heights[0] < page.height / 2
    sparse = _Reader(SAMPLE_LETTERS - 1)
    assert _first_pass_text(sparse, page, "jpn", 100) == "a" * 1000  # type: ignore[arg-type]
    assert sparse.heights[1] == page.height
    assert GAP > 0
