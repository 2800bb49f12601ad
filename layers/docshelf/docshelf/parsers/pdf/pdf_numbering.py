"""Which PDF lines carry heading numbering, and the level it implies.

The level comes from `structure.numbering_heading_level`, the one numbering recogniser of every format; what is
PDF's own is which lines may be numbered titles at all: a line read off a page has lost its paragraph marks, so
a table row (`2 4 0.923`) or a wrapped sentence (`12 of the cases…`) must not pass for one.
"""

from __future__ import annotations

import re

from docshelf.structure import chapter_marker, dotted_number, numbering_heading_level, numbering_mark, unsequenced

_DECIMAL = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,5})\.?\s+(\S.*)$")
_TWO_LETTERS = re.compile(r"[^\W\d_].*?[^\W\d_]")


def numbering_level(text: str) -> int | None:
    """The level a numbering prefix implies, or None when the text carries no heading numbering."""
    return numbering_heading_level(text) if _may_be_numbered(text) else None


def _may_be_numbered(text: str) -> bool:
    """Not a row of numbers: a decimal number is a title's only with two letters after it."""
    match = _DECIMAL.match(text)
    return match is None or _TWO_LETTERS.search(match.group(2)) is not None


def explicit_marker(text: str) -> bool:
    """A chapter word or a CJK chapter marker: a heading even when set in the body font."""
    return chapter_marker(text)


def lone_numbers(texts: list[str]) -> set[int]:
    """The indexes of the numbered lines whose dotted number has no neighbour among them (`structure.unsequenced`):
    a running header `38 第3章 数式の組版`, `24 Hour Service` is no numbered heading."""
    numbers: list[tuple[int, ...] | None] = []
    for text in texts:
        mark = numbering_mark(text) if _may_be_numbered(text) else None
        numbers.append(dotted_number(mark) if mark is not None and not mark.body else None)
    return set(unsequenced(numbers))
