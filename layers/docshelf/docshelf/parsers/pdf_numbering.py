"""Which PDF lines carry heading numbering, and the level it implies.

The level comes from `structure.numbering_heading_level`, the one numbering recogniser of every format; what is
PDF's own is which lines may be numbered titles at all: a line read off a page has lost its paragraph marks, so
a table row (`2 4 0.923`), a wrapped sentence (`12 of the cases…`) or a cross-reference (`第3条に定める…`) must not
pass for one. A few markers the recogniser does not know yet (`Annex`, `Kapitel`, `一、`, `（一）`) are kept here.
"""

from __future__ import annotations

import re

from docshelf.structure import numbering_heading_level

_DECIMAL = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,5})\.?\s+(\S.*)$")
_TWO_LETTERS = re.compile(r"[^\W\d_].*?[^\W\d_]")
_KEYWORD = re.compile(
    r"^(chapter|part|appendix|annex|section|kapitel|chapitre|capítulo)\s+(?:\d+|[IVXLC]+|[A-Z])\b", re.I
)
_KEYWORD_LEVELS = {"section": 2}
_CJK_NUMBER = "一二三四五六七八九十百千零〇两0-9０-９"
_CJK_MARKER = re.compile(rf"^第[{_CJK_NUMBER}]+\s*([部編编篇章節节条條款項项回])")
# Kana right after a chapter marker (`第3条に定める`, `第2章の規定`) make it a reference inside a sentence.
_CJK_REFERENCE = re.compile(rf"^第[{_CJK_NUMBER}]+\s*[部編编篇章節节条條款項项回][\u3040-\u309f]")
_CJK_MARKER_LEVELS = {"部": 1, "編": 1, "编": 1, "篇": 1, "章": 1, "回": 1, "節": 2, "节": 2, "条": 3, "條": 3}
_CJK_MARKER_LEVELS |= {"款": 4, "項": 4, "项": 4}
_CJK_ENUMERATION = re.compile(rf"^(?:[{_CJK_NUMBER}]+[、．]|[（(][{_CJK_NUMBER}]+[）)])")


def numbering_level(text: str) -> int | None:
    """The level a numbering prefix implies, or None when the text carries no heading numbering."""
    if match := _DECIMAL.match(text):
        title = match.group(2)
        if not title[0].isalpha() or title[0].islower() or _TWO_LETTERS.search(title) is None:
            return None
    elif _CJK_REFERENCE.match(text):
        return None
    level = numbering_heading_level(text)
    if level is not None:
        return level
    if match := _KEYWORD.match(text):
        return _KEYWORD_LEVELS.get(match.group(1).lower(), 1)
    if match := _CJK_MARKER.match(text):
        return _CJK_MARKER_LEVELS.get(match.group(1), 1)
    if _CJK_ENUMERATION.match(text):
        return 2 if text[0] not in "（(" else 3
    return None


def explicit_marker(text: str) -> bool:
    """A chapter word or a CJK chapter marker: a heading even when set in the body font (as Word exports a
    規程 whose 第N章 / 第N条 lines carry no heading style)."""
    return _KEYWORD.match(text) is not None or _CJK_MARKER.match(text) is not None
