"""DrawingML auto-numbered bullets (`a:buAutoNum`): the labels ("1.", "b)", "(iv)") PowerPoint draws.

PowerPoint keeps one counter per indent level within a text frame: a numbered paragraph continues its level's
run when the scheme and start value are those of the run, else starts a new one at `startAt`; every paragraph
restarts the deeper levels, and a paragraph without a number ends its own level's run. Empty paragraphs show no
number and leave the counters alone (the caller does not pass them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pptx.oxml.ns import qn

from docshelf.parsers.office.docx_numbering import format_number

if TYPE_CHECKING:
    from lxml import etree

_SCHEME = re.compile(r"(alphaLc|alphaUc|arabic|romanLc|romanUc)(ParenBoth|ParenR|Period|Plain)")
_WORD_FORMATS = {
    "alphaLc": "lowerLetter",
    "alphaUc": "upperLetter",
    "arabic": "decimal",
    "romanLc": "lowerRoman",
    "romanUc": "upperRoman",
}
_CIRCLED_ONE = 0x2460  # ① .. ⑳
_CIRCLED_LAST = 20


@dataclass(frozen=True, slots=True)
class AutoNumber:
    """A paragraph's `a:buAutoNum`: the scheme name (`arabicPeriod`) and its start value."""

    scheme: str
    start: int = 1


def auto_number(p_pr: etree._Element | None) -> AutoNumber | None:
    """The auto-number a paragraph's own properties (`a:pPr`) set, if any; a missing or bad `startAt` is 1."""
    element = p_pr.find(qn("a:buAutoNum")) if p_pr is not None else None
    if element is None:
        return None
    start = str(element.get("startAt") or "1")
    return AutoNumber(str(element.get("type") or "arabicPeriod"), int(start) if start.isdigit() else 1)


def scheme_label(scheme: str, value: int) -> str:
    """`value` drawn in `scheme`: `arabicPeriod` 3 -> `3.`, `alphaLcParenR` 2 -> `b)`, `romanUcParenBoth` 4 -> `(IV)`.

    Circled numbers are drawn up to 20; any other scheme (East Asian, Hebrew, Thai...) as a plain `3.`.
    """
    if scheme.startswith("circleNum") and 0 < value <= _CIRCLED_LAST:
        return chr(_CIRCLED_ONE + value - 1)
    match = _SCHEME.fullmatch(scheme)
    if match is None:
        return f"{value}."
    number = format_number(value, _WORD_FORMATS[match.group(1)])
    punctuation = match.group(2)
    if punctuation == "ParenBoth":
        return f"({number})"
    if punctuation == "ParenR":
        return f"{number})"
    if punctuation == "Period":
        return f"{number}."
    return number


class AutoNumbering:
    """Replays PowerPoint's per-level counters over the non-empty paragraphs of one text frame, in order."""

    def __init__(self) -> None:
        self._runs: dict[int, tuple[AutoNumber, int]] = {}

    def next_label(self, level: int, number: AutoNumber | None) -> str:
        """The label of the next paragraph at `level` ('' when it has no auto-number)."""
        run = self._runs.get(level)
        for deeper in [deeper for deeper in self._runs if deeper >= level]:
            del self._runs[deeper]
        if number is None:
            return ""
        value = run[1] + 1 if run is not None and run[0] == number else number.start
        self._runs[level] = (number, value)
        return scheme_label(number.scheme, value)
