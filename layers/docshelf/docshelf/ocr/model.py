"""What an OCR engine returns for one image: paragraphs of lines of words, each with a pixel box and a confidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from docshelf.model import Heading, Paragraph, Table

# The typed blocks OCR'd text becomes.
OcrBlock: TypeAlias = Heading | Paragraph | Table
Box = tuple[int, int, int, int]  # left, top, right, bottom in pixels of the recognised image


def union(boxes: list[Box]) -> Box:
    """The smallest box holding all of `boxes`."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    box: Box
    confidence: float  # 0..1


@dataclass(frozen=True, slots=True)
class OcrLine:
    words: tuple[OcrWord, ...]
    box: Box


@dataclass(frozen=True, slots=True)
class OcrParagraph:
    lines: tuple[OcrLine, ...]


@dataclass(frozen=True, slots=True)
class OcrPage:
    """An image's text in the engine's reading order."""

    width: int
    height: int
    paragraphs: tuple[OcrParagraph, ...] = ()

    def words(self) -> list[OcrWord]:
        return [word for paragraph in self.paragraphs for line in paragraph.lines for word in line.words]
