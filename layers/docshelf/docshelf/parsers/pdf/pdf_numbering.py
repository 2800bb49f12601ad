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
    if (match := _DECIMAL.match(text)) and _TWO_LETTERS.search(match.group(2)) is None:
        return None
    return numbering_heading_level(text)


def explicit_marker(text: str) -> bool:
    """A chapter word or a CJK chapter marker: a heading even when set in the body font."""
    return chapter_marker(text)


def lone_numbers(texts: list[str]) -> set[int]:
    """The indexes of the numbered lines whose dotted number has no neighbour among them (`structure.unsequenced`):
    a running header `38 第3章 数式の組版`, `24 Hour Service` is no numbered heading."""
    numbers = [dotted_number(numbering_mark(text)) if numbering_level(text) is not None else None for text in texts]
    return set(unsequenced(numbers))
