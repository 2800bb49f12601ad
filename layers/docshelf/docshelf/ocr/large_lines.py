"""Titles and other lines set much larger than the page's text, read again at the body text's size.

Tesseract's line models read glyphs of about body-text height best: a 24 pt Chinese title at 300 dpi (100 px a
character) came back garbled (灯塔检查报告 as 让大人灯培检查报告) where the same words at 12 pt were read right. A line
at least REREAD_HEIGHT times the page's median line height is cut out, scaled down to that median and read again as
one line; the new reading replaces the old where the engine is more confident of it.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Protocol, cast

from docshelf.ocr.model import Box, OcrLine, OcrPage, OcrParagraph, OcrWord

if TYPE_CHECKING:
    from PIL.Image import Image

REREAD_HEIGHT = 1.6
# Lines read again per page at most (a poster of large lines is read once, as it was).
MAX_REREADS = 8
_MARGIN = 0.15  # of the line's height, around its box


class LineReader(Protocol):
    def recognise_line(self, image: Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage: ...


def reread_large_lines(
    engine: object, image: Image, page: OcrPage, languages: tuple[str, ...], *, dpi: int | None
) -> OcrPage:
    """`page` with its large lines read again by `engine` (when it can read single lines)."""
    reader = cast("LineReader", engine) if hasattr(engine, "recognise_line") else None
    heights = [line.box[3] - line.box[1] for paragraph in page.paragraphs for line in paragraph.lines]
    if reader is None or len(heights) < 2:
        return page
    body = statistics.median(heights)
    large = [line for p in page.paragraphs for line in p.lines if line.box[3] - line.box[1] >= REREAD_HEIGHT * body]
    if not large or len(large) > MAX_REREADS:
        return page
    replaced = {id(line): _reread(reader, image, line, body, languages, dpi) for line in large}
    return OcrPage(
        page.width,
        page.height,
        tuple(
            OcrParagraph(tuple(replaced.get(id(line)) or line for line in paragraph.lines))
            for paragraph in page.paragraphs
        ),
    )


def _reread(
    reader: LineReader, image: Image, line: OcrLine, body: float, languages: tuple[str, ...], dpi: int | None
) -> OcrLine | None:
    left, top, right, bottom = line.box
    margin = round((bottom - top) * _MARGIN)
    box = (max(0, left - margin), max(0, top - margin), min(image.width, right + margin),
           min(image.height, bottom + margin))  # fmt: skip
    scale = body / (bottom - top)
    crop = image.crop(box)
    small = crop.resize((max(1, round(crop.width * scale)), max(1, round(crop.height * scale))))
    words = reader.recognise_line(small, languages, dpi=round(dpi * scale) if dpi else None).words()
    if not words or _confidence(words) <= _confidence(list(line.words)):
        return None
    placed = tuple(OcrWord(word.text, _placed(word.box, box, scale), word.confidence) for word in words)
    return OcrLine(placed, line.box)


def _placed(word: Box, crop: Box, scale: float) -> Box:
    return (
        crop[0] + round(word[0] / scale),
        crop[1] + round(word[1] / scale),
        crop[0] + round(word[2] / scale),
        crop[1] + round(word[3] / scale),
    )


def _confidence(words: list[OcrWord]) -> float:
    weight = sum(len(word.text) for word in words)
    return sum(word.confidence * len(word.text) for word in words) / weight if weight else 0.0
