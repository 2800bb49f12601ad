"""The body flow across a page's regions: footnotes to the end of their page, paragraphs rejoined across column and
page breaks, and words hyphenated at line ends resolved against the whole document's words.

A footnote starts at a marker (`8SQuAD is…`, `* Equal contribution`, `† Work done…`) in a type smaller than the
page's body, in the lower half of the page, below body text of its own region; the small-type blocks after it in
that region are its continuations (a note running on, the next note). Notes set in the body's type (a word
processor's footnote style at the body's size) are known by the short rule word processors draw above them
(`note_rule`): marked blocks below it are notes whatever their size. Left in place, a note at the foot of a column
splits the sentence that continues at the top of the next one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docshelf.parsers.pdf.pdf_hyphens import HYPHEN_BREAK, Vocabulary, resolve, wanted_words
from docshelf.parsers.pdf.pdf_lines import Line
from docshelf.parsers.pdf.pdf_paragraphs import TextBlock, join_lines

Rule = tuple[float, float, float, float]  # x0, top, x1, bottom

SMALLER_THAN_BODY = 0.92
LOWER_PART = 0.5
TEXT_SHARE = 0.6  # of a page's width, at least its text's measure (a page's margins are rarely a fifth of it each)
_NOTE_MARK = re.compile(r"^(?:\d{1,3}|[*†‡§¶])\s?[^\W\d_]")
MIN_RUNNING_WORDS = 6  # a one-line block this long is running text, not a heading or a label
_ENDS_SENTENCE = re.compile(r"[.!?:;。！？：；」』)\]\"”’]$")


def note_rule(
    rules: Sequence[Rule], lines: Sequence[Line], page_height: float, page_width: float = 0.0
) -> float | None:
    """The top of a footnote separator: a lone horizontal rule in the lower half of the page, starting at the left
    edge of text below it that opens with a note marker, and shorter than half the text's measure: its widest line,
    or on a page of short lines TEXT_SHARE of the page's width (Word draws two inches, LibreOffice a quarter of the
    text's width); None without one."""
    if not rules or not lines:
        return None
    widest = max(max(line.x1 - line.x0 for line in lines), TEXT_SHARE * page_width)
    for x0, top, x1, bottom in rules:
        if bottom - top > 1.5 or top < LOWER_PART * page_height or x1 - x0 >= 0.5 * widest:
            continue
        below = [line for line in lines if line.top >= bottom and abs(line.x0 - x0) <= 3.0]
        if not below or not _NOTE_MARK.match(_row_text(min(below, key=lambda line: line.top), lines)):
            continue
        if not any(other[1] != top and abs(other[1] - top) < 2.0 for other in rules):  # not one of a table's rules
            return top
    return None


def _row_text(first: Line, lines: Sequence[Line]) -> str:
    """The text of the row `first` opens: a note's number set a tab before its text is a line of its own."""
    row = sorted(
        (line for line in lines if line.x0 >= first.x0 and abs(line.top - first.top) < 0.5 * max(first.height, 1.0)),
        key=lambda line: line.x0,
    )
    return " ".join(line.text for line in row)


def take_footnotes(
    blocks: list[TextBlock], body: float, page_height: float, rule: float | None = None
) -> list[TextBlock]:
    """Remove a region's footnotes from its blocks (in place) and return them in order; with `rule` (`note_rule`),
    marked blocks below it too, whatever their type's size."""

    def in_notes(block: TextBlock) -> bool:
        return block.size <= SMALLER_THAN_BODY * body or (rule is not None and block.top >= rule)

    seen_body = False
    for index, block in enumerate(blocks):
        if not in_notes(block):
            seen_body = True
            continue
        if seen_body and block.top >= LOWER_PART * page_height and _NOTE_MARK.match(block.text):
            tail = blocks[index:]
            if all(in_notes(other) for other in tail):
                del blocks[index:]
                for note in tail:
                    note.note = True
                return tail
            return []
    return []


def continues(previous: TextBlock, block: TextBlock) -> bool:
    """Whether `block` goes on with the paragraph `previous` broke off at a column or page end."""
    if block.aside or not block.text[:1].islower() or block.page - max(previous.page, previous.end_page) not in (0, 1):
        return False
    if block.code or previous.code:
        return False
    if abs(block.size - previous.size) > 0.5 or block.bold != previous.bold or block.list_item:
        return False
    text = previous.text.rstrip()
    hyphenated = len(text) > 1 and text.endswith("-") and text[-2].isalpha()
    long_enough = previous.n_lines >= 2 or len(text.split()) >= MIN_RUNNING_WORDS
    return hyphenated or (long_enough and _ENDS_SENTENCE.search(text) is None)


def merge_into(previous: TextBlock, block: TextBlock) -> None:
    previous.text = join_lines([previous.text, block.text], marked=True)
    previous.n_lines += block.n_lines
    previous.end_page = max(previous.end_page, block.page)


def resolve_hyphens(blocks: Sequence[TextBlock]) -> None:
    """Every line-end hyphen mark of the document's blocks resolved against the words of all of them."""
    if not any(HYPHEN_BREAK in block.text for block in blocks):
        return
    texts = [block.text for block in blocks]
    vocabulary = Vocabulary.of(texts, wanted_words(texts))
    for block in blocks:
        block.text = resolve(block.text, vocabulary)
