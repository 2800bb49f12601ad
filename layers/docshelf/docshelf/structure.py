"""Document structure: numbering-pattern headings and the section path of every block."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from docshelf.model import Block

_CHAPTER = re.compile(r"^(?:chapter|part|section|appendix)\s+([0-9]+|[ivxlc]+|[a-z])\b[.:]?\s*\S?", re.IGNORECASE)
_CJK_CHAPTER = re.compile(r"^第[0-9一二三四五六七八九十百千〇零]+([章节節部篇编編回条條])")
_DOTTED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S")
_CJK_LEVELS = {"部": 1, "篇": 1, "编": 1, "編": 1, "章": 1, "回": 1, "节": 2, "節": 2, "条": 3, "條": 3}


def numbering_heading_level(line: str, *, allow_dotted: bool = True) -> int | None:
    """The heading level implied by a numbering pattern (`1.2.3`, `Chapter 4`, `第一章`, `第1節`)."""
    text = line.strip()
    if not text or len(text) > 120 or (text.endswith((".", "。", ",", "，", ";", ":")) and len(text) > 40):
        return None
    if _CHAPTER.match(text):
        return 1
    cjk = _CJK_CHAPTER.match(text)
    if cjk:
        return _CJK_LEVELS[cjk.group(1)]
    if allow_dotted:
        dotted = _DOTTED.match(text)
        if dotted and len(text.split()) <= 14:
            return min(dotted.group(1).count(".") + 1, 6)
    return None


def section_paths(blocks: Iterable[Block]) -> Iterator[tuple[Block, tuple[str, ...]]]:
    """Pair every block with the titles of the headings above it (a heading includes itself)."""
    stack: list[tuple[int, str]] = []
    for block in blocks:
        if block.kind == "heading":
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, " ".join(block.text.split())))
        yield block, tuple(title for _, title in stack)
