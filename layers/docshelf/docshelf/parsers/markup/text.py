"""Plain text: encoding detection, paragraphs separated by blank lines, numbered lines as headings."""

from __future__ import annotations

import re
from collections.abc import Callable

from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.textcodec import decode_report
from docshelf.structure import numbered_headings

_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n")


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    decoded = decode_report(data)
    return ParsedContent(blocks=text_blocks(decoded.text), warnings=decoded.document_warnings())


def text_blocks(text: str, *, page: int = 1) -> list[Block]:
    normalized = _lines_of(text)
    blocks: list[Block] = []
    for raw in _BLANK_LINES.split(normalized):
        paragraph = raw.strip("\n").rstrip()
        if not paragraph:  # rstrip left nothing of a paragraph of whitespace (no strip() copy of a long one)
            continue
        blocks.append(Paragraph(text=paragraph, page=page))
    return numbered_headings(blocks)


def read_lines(data: bytes, read: Callable[[list[str]], list[Block]]) -> ParsedContent:
    """A line-based markup (reStructuredText, AsciiDoc): its decoded lines read into blocks by `read`, numbered lines
    as headings, the first heading its title."""
    decoded = decode_report(data)
    lines = _lines_of(decoded.text).split("\n")
    blocks = numbered_headings(read(lines))
    title = next((block.text for block in blocks if isinstance(block, Heading)), "")
    return ParsedContent(blocks=blocks, title=title, warnings=decoded.document_warnings())


def _lines_of(text: str) -> str:
    """The text with its line ends as `\\n` and without NUL characters."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
