"""Headings a word processor's user made by formatting alone: a short line set bold, or larger than the body, with no
heading style. Many documents are written that way, and without their headings a citation has no section path and
the chunker no section to keep together.

Formatting is weaker evidence than a style or an outline, so it is read only in a document that has no headings of
its own but perhaps a title. A short line larger than the body is a heading unless the next line is set alike (an
address block set large); a bold one at the body's size only where it leads into prose (a sentence, or a longer
line), a table, a list, a picture or a heading, and only while less than half the body is bold: a bold line between
two short lines (a list of formats) stays text. Levels follow the looks found, larger first and bold before plain.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers.captions import is_caption
from docshelf.parsers.form_fields import is_form_field

MAX_HEADING_CHARS = 100
MAX_HEADING_WORDS = 14
# The next paragraph is body text when it ends a sentence or runs at least this long.
BODY_CHARS = 60
# Larger than the body by this much is a heading's size, bold or not (an 11 pt body, 13 pt headings).
LARGER = 1.15
# Bold at the body's size says nothing where this share of the body's characters is bold.
BOLD_BODY_SHARE = 0.5
MAX_LEVEL = 6
# Sizes this many points apart are one body size (text pasted in at 10.5 pt into a 10 pt body).
SAME_SIZE = 1.0
# A line this many points smaller than the body is set smaller, not at the body's size (sizes rounded on export).
SMALLER = 0.25

_NO_HEADING_END = tuple(".,;:、，；：。")
_SENTENCE_END = tuple(".!?。！？．")
_CONTENTS_ENTRY = re.compile(r"(?:\t|\.{3,}|…+|\s{2,})\s*\d+\s*$")


@dataclass(frozen=True, slots=True)
class Look:
    """How a paragraph's visible text is set: its size in points (that of most of its characters) and whether all of
    it is bold."""

    size: float
    bold: bool

    @classmethod
    def of(cls, characters: Mapping[tuple[bool, float], int]) -> Look | None:
        """The look of a paragraph whose visible characters, by (bold, size), are counted in `characters`."""
        counted = {key: count for key, count in characters.items() if count > 0}
        if not counted:
            return None
        sizes: Counter[float] = Counter()
        for (_, size), count in counted.items():
            sizes[size] += count
        return cls(size=sizes.most_common(1)[0][0], bold=all(bold for bold, _ in counted))


def reads_formatting(blocks: Sequence[Block]) -> bool:
    """Whether the document's headings are left to its formatting: it has none of its own but perhaps a title."""
    return sum(1 for block in blocks if isinstance(block, Heading)) <= 1


def formatted_headings(blocks: Sequence[Block], looks: Mapping[int, Look]) -> list[Block]:
    """`blocks` with the paragraphs whose look (`looks`, by block index) makes them headings turned into headings."""
    existing = [block for block in blocks if isinstance(block, Heading)]
    if not reads_formatting(blocks) or not looks:
        return list(blocks)
    body = _body_look(blocks, looks)
    confirmed: dict[int, Look] = {}
    for index in sorted(looks, reverse=True):  # a bold line over a heading leads in where that one does
        look = looks[index]
        if _candidate(blocks[index], look, body) and _leads_on(blocks, index + 1, looks, look, confirmed, body):
            confirmed[index] = look
    if not confirmed:
        return list(blocks)
    levels = _levels(confirmed, above=1 if existing and existing[0].level == 1 else 0)
    result = list(blocks)
    for index, look in confirmed.items():
        paragraph = blocks[index]
        assert isinstance(paragraph, Paragraph)
        result[index] = Heading(text=paragraph.text, level=levels[look], page=paragraph.page, ocr=paragraph.ocr)
    return result


def _levels(confirmed: Mapping[int, Look], above: int) -> dict[Look, int]:
    """A level for each look, larger first and bold before plain at one size, counting only the looks of headings
    that lead straight into content. The others head only headings: a cover's or a title block's lines, a chapter's
    label over its title, which then stand level with the headings under them rather than above every section."""
    leading = {look for index, look in confirmed.items() if index + 1 not in confirmed}
    levels = {}
    for look in set(confirmed.values()):
        larger = sum(1 for other in leading if (-other.size, not other.bold) < (-look.size, not look.bold))
        levels[look] = min(above + 1 + larger, MAX_LEVEL)
    return levels


@dataclass(frozen=True, slots=True)
class _Body:
    size: float
    bold_counts: bool  # bold at the body's size still marks a heading


def _body_look(blocks: Sequence[Block], looks: Mapping[int, Look]) -> _Body:
    """The body's size: the commonest size, by characters, of the sizes within a point of each other that hold the
    most text (a body in 10 and 10.5 pt outweighs headings in 16); and whether bold still marks anything."""
    sizes: Counter[float] = Counter()
    bold = 0
    for index, look in looks.items():
        characters = len(_text(blocks[index]))
        sizes[look.size] += characters
        bold += characters if look.bold else 0
    clusters: list[list[float]] = []
    for size in sorted(sizes):
        if clusters and size - clusters[-1][-1] <= SAME_SIZE:
            clusters[-1].append(size)
        else:
            clusters.append([size])
    heaviest = max(clusters, key=lambda cluster: sum(sizes[size] for size in cluster))
    return _Body(size=max(heaviest, key=sizes.__getitem__), bold_counts=bold < BOLD_BODY_SHARE * sizes.total())


def _candidate(block: Block, look: Look, body: _Body) -> bool:
    if not isinstance(block, Paragraph) or block.list_level is not None or block.code:
        return False
    text = block.text.strip()
    if (
        not text
        or "\n" in text
        or len(text) > MAX_HEADING_CHARS
        or len(text.split()) > MAX_HEADING_WORDS
        or text.endswith(_NO_HEADING_END)
        or not any(character.isalpha() for character in text)
        or _CONTENTS_ENTRY.search(block.text)
        or is_form_field(text)
        or is_caption(text)
    ):
        return False
    if look.size < body.size - SMALLER:
        return False
    return look.size >= body.size * LARGER or (look.bold and body.bold_counts)


def _leads_on(
    blocks: Sequence[Block], at: int, looks: Mapping[int, Look], look: Look, confirmed: Mapping[int, Look], body: _Body
) -> bool:
    """Whether what follows a line of this look is what a heading leads into. Never a line set alike (an address
    block, a list of labels, a bold passage). After a larger line anything else; after a bold one at the body's size
    a table, a picture, a list, a heading, or a paragraph that reads as prose."""
    if at >= len(blocks):
        return False
    following = blocks[at]
    if isinstance(following, (Table, Image)):
        return True
    if not isinstance(following, Paragraph) or looks.get(at) == look:
        return False
    if look.size >= body.size * LARGER or at in confirmed or following.list_level is not None:
        return True
    text = following.text.strip()
    return text.endswith(_SENTENCE_END) or len(text) >= BODY_CHARS


def _text(block: Block) -> str:
    return block.text if isinstance(block, Paragraph) else ""
