"""Document structure: the section path of every block, and headings from numbering where no style says so.

The numbering recogniser (`numbering_mark`) reads one line: `1.2.3 Scope`, `Chapter 4`, Japanese and Chinese
chapter markers (`第1章`, `第１０条（懲戒）`, `第十二節`, `第3条の2`), `１．１ 所定労働時間`, Chinese enumerations
(`一、`, `（一）`), `(1)` and `①`. Each mark has a kind ranked by what contains what
(編 > 章 > 節 > 款 > 条 > 項, then the enumerations); `numbered_headings` turns the marked paragraphs of a whole
document into headings at levels from the kinds present.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from docshelf.model import Block, Heading, Paragraph

_NUMERAL = "0-9一二三四五六七八九十百千〇零两壱弐参"
_CJK_MARKER = re.compile(
    rf"^第\s?([{_NUMERAL}]+)\s?([編编部篇章节節款条條項项回])(?:の([{_NUMERAL}]+))*(?P<rest>.*)$", re.DOTALL
)
_WESTERN = re.compile(
    r"^(chapter|part|section|appendix|annex|kapitel|chapitre|capítulo)\s+([0-9]+|[ivxlc]+|[a-z])\b[.:]?(?P<rest>.*)$",
    re.I | re.S,
)
_BARE_NUMBER = re.compile(r"\d{1,2}(?:\.\d{1,2}){0,4}\.?")
_DOTTED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})(?:\.(?!\d))?(?P<rest>.*)$", re.DOTALL)
_CJK_ENUMERATION = re.compile(r"^([一二三四五六七八九十]{1,3})[、､](?P<rest>.*)$", re.DOTALL)
_CJK_PARENTHESISED = re.compile(r"^\(([一二三四五六七八九十]{1,3})\)(?P<rest>.*)$", re.DOTALL)
_PARENTHESISED = re.compile(r"^\((\d{1,2})\)(?P<rest>.*)$", re.DOTALL)
_CIRCLED = re.compile(r"^([\u2460-\u2473\u3251-\u325f\u32b1-\u32bf])(?P<rest>.*)$", re.DOTALL)
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
    "|januar|februar|märz|mai|juni|juli|oktober|dezember"
)
_DATE = re.compile(rf"\d{{1,2}}\.? (?i:{_MONTHS})\.?,?(?: \d{{2,4}})?")
_DOT_LEADER = re.compile(r"(?:\.{3,}|…+|‥+|・{3,}|\s\.\s\.)\s*\d+$")
_SENTENCE_END = ("。", ".", "!", "?", "！", "？", ";", "；", ",", "，", "、", ":")
_HIRAGANA = re.compile(r"[\u3041-\u309f]")
_HAN_OR_KATAKANA = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_HAN_OR_KANA = re.compile(r"[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SPACE = re.compile(r"\s+")
_CAPTION = re.compile(r"[（(][^（）()\n]{1,20}[）)]")
_CAPTION_INSIDE = re.compile(r"[（(]")

# What contains what: a smaller rank contains a larger one. Chapter markers rank by statute order
# (編 > 章 > 節 > 款 > 条 > 項); the enumerations come after them (Chinese official documents:
# 一、 > （一） > 1. > （1）), dotted numbers by their depth.
_MARKER_RANKS = {
    "編": 10, "编": 10, "部": 10, "篇": 10, "part": 10,
    "章": 20, "回": 20, "chapter": 20, "appendix": 20, "annex": 20, "kapitel": 20, "chapitre": 20, "capítulo": 20,
    "節": 30, "节": 30, "section": 30,
    "款": 40,
    "条": 50, "條": 50,
    "項": 60, "项": 60,
}  # fmt: skip
_ENUMERATION_RANK = 70
_CJK_PARENTHESISED_RANK = 80
_DOTTED_RANK = 100  # + depth
_PARENTHESISED_RANK = 200
_CIRCLED_RANK = 210
# The one-line levels (numbering_heading_level) of the chapter markers: as they were before ranks, 条 at 3.
_MARKER_LEVELS = {10: 1, 20: 1, 30: 2, 40: 3, 50: 3, 60: 4}
# Kinds that also number list items: a heading of these kinds must be shorter (MAX_LIST_TITLE_CHARS).
_LIST_LIKE_RANKS = frozenset({_ENUMERATION_RANK, _CJK_PARENTHESISED_RANK, _PARENTHESISED_RANK, _CIRCLED_RANK})
# The first characters a mark can have: most lines are passed over on one look-up.
_MARK_STARTS = frozenset(
    "第0123456789０１２３４５６７８９(（一二三四五六七八九十CcPpSsAa"
    + "".join(map(chr, [*range(0x2460, 0x2474), *range(0x3251, 0x3260), *range(0x32B1, 0x32C0)]))
)
_LABEL_STARTS = _MARK_STARTS | frozenset("Kk")  # and `Kapitel`
MAX_TITLE_CHARS = 60
MAX_LIST_TITLE_CHARS = 30
MAX_HEADING_LEVEL = 6


@dataclass(frozen=True, slots=True)
class NumberingMark:
    """A heading-shaped numbering at the start of a line: its kind's rank, the heading, and text after it on the
    same line (`第1条（目的）この規則は…` has the body `この規則は…`)."""

    rank: int
    heading: str
    body: str = ""


def numbering_heading_level(line: str, *, allow_dotted: bool = True) -> int | None:
    """The heading level implied by a numbering pattern on one line (`1.2.3`, `Chapter 4`, `第一章`,
    `第１０条（懲戒）`, `１．１`, `一、`, `（一）`, `(1)`, `①`); `allow_dotted=False` refuses a bare `1` or `1.`, which
    numbers lists too."""
    mark = numbering_mark(line)
    if mark is None or mark.body:
        return None
    if mark.rank == _DOTTED_RANK + 1 and not allow_dotted:
        return None
    return _one_line_level(mark.rank)


def chapter_marker(line: str) -> bool:
    """Whether a line starts with a chapter word or a CJK chapter marker (`Chapter 4`, `第1章`, `第3条（目的）`):
    a heading even when nothing else marks it, as Word exports a 規程 whose 第N章 / 第N条 lines carry no style."""
    mark = numbering_mark(line)
    return mark is not None and mark.rank in _MARKER_LEVELS


def bare_label(line: str) -> str | None:
    """What a line is when it holds only a numbering label and no title: "chapter" (`Chapter 4`, `PART II`,
    `Appendix A`, `第1章`, `第三节`), "number" (`2.1`), else None. Such a line is the first part of a title set on its
    own line or apart from the title by a gap."""
    if line.lstrip()[:1] not in _LABEL_STARTS:
        return None
    text = unicodedata.normalize("NFKC", _SPACE.sub(" ", line.strip()))
    if (marker := _CJK_MARKER.match(text)) and not marker.group("rest").strip():
        return "chapter" if _MARKER_RANKS[marker.group(2)] < _MARKER_RANKS["款"] else None
    if (western := _WESTERN.match(text)) and not western.group("rest").strip():
        return "chapter"
    return "number" if _BARE_NUMBER.fullmatch(text) else None


def _one_line_level(rank: int) -> int:
    if rank in _MARKER_LEVELS:
        return _MARKER_LEVELS[rank]
    if _DOTTED_RANK < rank < _PARENTHESISED_RANK:
        return min(rank - _DOTTED_RANK, MAX_HEADING_LEVEL)
    return {_ENUMERATION_RANK: 2, _CJK_PARENTHESISED_RANK: 3, _PARENTHESISED_RANK: 3}.get(rank, 4)


def numbering_mark(line: str) -> NumberingMark | None:
    """The numbering a line starts with when the line reads as a heading, else None. Refused: references
    (`第3条に定める…`), sentences, table-of-contents lines (`第1章 総則 …… 3`), a number followed by a lower-case
    word (`1.5 million`)."""
    text = _SPACE.sub(" ", line.strip())
    if not text or len(text) > 300 or _DOT_LEADER.search(text):
        return None
    circled = _CIRCLED.match(text)
    if circled:
        return _titled(_CIRCLED_RANK, text, circled.group("rest"))
    folded = unicodedata.normalize("NFKC", text)
    if marker := _CJK_MARKER.match(folded):
        return _chapter_marker(_MARKER_RANKS[marker.group(2)], text, marker.start("rest"), marker.group("rest"))
    if western := _WESTERN.match(folded):
        rest = western.group("rest")
        if rest[:1] not in ("", " ") or rest.strip()[:1].islower():  # `Section 2, certain…`, `Section 3 describes…`
            return None
        return _titled(_MARKER_RANKS[western.group(1).lower()], text, rest, allow_empty=True)
    if enumeration := _CJK_ENUMERATION.match(folded):
        return _titled(_ENUMERATION_RANK, text, enumeration.group("rest"))
    if parenthesised := _CJK_PARENTHESISED.match(folded):
        return _titled(_CJK_PARENTHESISED_RANK, text, parenthesised.group("rest"))
    if parenthesised := _PARENTHESISED.match(folded):
        return _titled(_PARENTHESISED_RANK, text, parenthesised.group("rest"))
    if dotted := _DOTTED.match(folded):
        return _dotted(dotted.group(1).count(".") + 1, text, dotted.group("rest"))
    return None


def _chapter_marker(rank: int, text: str, rest_at: int, rest: str) -> NumberingMark | None:
    """`第N章 総則`, `第N条（目的）` (with a body after the bracket, which stays a paragraph), `第N条 本文…。`."""
    if not rest or rest[0] == " ":
        title = rest.strip()
        if not title or _heading_title(title, MAX_TITLE_CHARS):
            return NumberingMark(rank, text)
        if rank >= _MARKER_RANKS["条"]:  # an article whose text follows its number: `第一条 この法律は、…`
            cut = _original_offset(text, rest_at)
            return NumberingMark(rank, text[:cut].strip(), text[cut:].strip())
        return None
    if rest[0] in "([【「":
        close = _closing_bracket(rest)
        if close < 0:
            return None
        cut = _original_offset(text, rest_at + close + 1)
        heading, body = text[:cut].strip(), text[cut:].strip()
        return NumberingMark(rank, heading, body) if len(heading) <= MAX_TITLE_CHARS else None
    if rest[0] == ":" and _heading_title(rest[1:].strip(), MAX_TITLE_CHARS):
        return NumberingMark(rank, text)
    # `第1章総則`: a title straight after 章 or 節 (not after 条: `第3条第2項の…` is a reference) with no kana particle.
    if rank < _MARKER_RANKS["条"] and _HAN_OR_KATAKANA.match(rest) and not _HIRAGANA.search(rest):
        return NumberingMark(rank, text) if _heading_title(rest, 20) else None
    return None


def _original_offset(text: str, folded_offset: int) -> int:
    """The offset in `text` of what is at `folded_offset` in its NFKC form (`…` folds to three characters)."""
    for offset in range(len(text) + 1):
        if len(unicodedata.normalize("NFKC", text[:offset])) >= folded_offset:
            return offset
    return len(text)


def _closing_bracket(rest: str) -> int:
    pairs = {"(": ")", "[": "]", "【": "】", "「": "」"}
    return rest.find(pairs[rest[0]])


def _titled(rank: int, text: str, rest: str, *, allow_empty: bool = False) -> NumberingMark | None:
    title = rest.strip()
    if not title:
        return NumberingMark(rank, text) if allow_empty else None
    limit = MAX_LIST_TITLE_CHARS if rank in _LIST_LIKE_RANKS else MAX_TITLE_CHARS
    return NumberingMark(rank, text) if _heading_title(title, limit) else None


def _dotted(depth: int, text: str, rest: str) -> NumberingMark | None:
    title = rest.strip()
    # A space after the number: `5日とする` and `1.5倍` are no headings, nor `2 4 0.923` and `1.5 million`.
    if not title or rest[:1] != " ":
        return None
    if depth == 1 and _DATE.fullmatch(unicodedata.normalize("NFKC", text).strip()):
        return None  # the day of a date (`14 March 2023`) numbers no section
    if not (title[0].isalpha() and not title[0].islower()):
        return None
    if len(title.split()) > 14:
        return None
    return _titled(_DOTTED_RANK + min(depth, 5), text, rest)


def _heading_title(title: str, limit: int) -> bool:
    """A title, not a sentence: short, with letters, without a sentence end or a full stop inside."""
    return (
        0 < len(title) <= limit
        and any(char.isalpha() for char in title)
        and not title.endswith(_SENTENCE_END)
        and "。" not in title
    )


def numbered_headings(blocks: Sequence[Block], *, headings_are_styled: bool = True) -> list[Block]:
    """The blocks with numbered paragraphs as headings (a paragraph's first line, or each marked line of a paragraph
    of lines, a body on the heading's line kept as a paragraph). Kept as paragraphs: list items, code, and a run of
    two or more marks of one kind with nothing between them (a list or a table of contents). A list item is a heading
    only when its label is a chapter marker: Word templates number 第1章 and 第1条 as a multilevel list.

    Numbering is weaker evidence than an outline or heading styles: a document whose existing headings are numbered
    themselves keeps them alone (its other numbered lines are a table of contents, a cover, cross-references) — when
    they come from styles; headings read from formatting (`headings_are_styled` False) are no stronger evidence than
    numbering. Below existing headings, the numbered kinds nest by rank."""
    existing = [block for block in blocks if isinstance(block, Heading)]
    if headings_are_styled and any(numbering_mark(heading.text) is not None for heading in existing):
        return list(blocks)
    split = [piece for block in blocks for piece in _marked_pieces(block)]
    marks = [mark for _, mark in split]
    if not any(marks):
        return list(blocks)
    _drop_runs(marks)
    _drop_unsequenced(marks)
    captions = _article_captions(split, marks)
    above = max((heading.level for heading in existing), default=0)
    ranks = sorted({mark.rank for mark in marks if mark is not None})
    levels = {rank: min(above + 1 + number, MAX_HEADING_LEVEL) for number, rank in enumerate(ranks)}
    result: list[Block] = []
    for index, ((block, _), mark) in enumerate(zip(split, marks, strict=True)):
        if index in captions:
            continue
        if mark is None or not isinstance(block, Paragraph):
            result.append(block)
            continue
        result.append(Heading(text=mark.heading, level=levels[mark.rank], page=block.page, ocr=block.ocr))
        if mark.body:
            result.append(replace(block, text=mark.body))
    return result


def _article_captions(
    split: Sequence[tuple[Block, NumberingMark | None]], marks: list[NumberingMark | None]
) -> set[int]:
    """Join each caption set on its own line above an article (`（目的）` / `第一条　この法律は…`, as statutes are set)
    to the article's heading; the indexes of the captions so joined."""
    joined: set[int] = set()
    for index in range(len(split) - 1):
        block, article = split[index][0], marks[index + 1]
        if marks[index] is not None or article is None or article.rank != _MARKER_RANKS["条"]:
            continue
        caption = block.text.strip() if isinstance(block, Paragraph) and block.list_level is None else ""
        if _CAPTION.fullmatch(caption) and not _CAPTION_INSIDE.search(article.heading):
            marks[index + 1] = replace(article, heading=f"{article.heading}{caption}")
            joined.add(index)
    return joined


def _marked_pieces(block: Block) -> Iterator[tuple[Block, NumberingMark | None]]:
    """The block in pieces: one per marked line of a paragraph (with the lines after it up to the next), or
    the block itself unmarked."""
    if not isinstance(block, Paragraph) or block.code:
        yield block, None
        return
    if block.list_level is not None:  # a list item, unless its label is a chapter marker (Word's `第%1条` lists)
        mark = numbering_mark(block.text) if "\n" not in block.text else None
        yield block, mark if mark is not None and mark.rank < _ENUMERATION_RANK else None
        return
    lines = block.text.split("\n")
    marks = [numbering_mark(line) if line.lstrip()[:1] in _MARK_STARTS else None for line in lines]
    if len(lines) > 1:  # wrapped prose may start a line with a number: only CJK headings stand on lines of their own
        marks = [mark if mark is not None and _HAN_OR_KANA.search(mark.heading) else None for mark in marks]
    if not any(marks):
        yield block, None
        return
    start = 0
    for index in range(1, len(lines) + 1):
        if index < len(lines) and marks[index] is None:
            continue
        text = "\n".join(lines[start:index])
        mark = marks[start]
        if mark is not None and start + 1 < index:  # the lines under a marked line are its body
            body = "\n".join(filter(None, [mark.body, *lines[start + 1 : index]]))
            mark = replace(mark, body=body)
        yield replace(block, text=text), mark
        start = index


def _drop_runs(marks: list[NumberingMark | None]) -> None:
    """Unmark every run of two or more marks of one kind in a row, each but the last without a body: a list
    (`(1) 日曜日` / `(2) 土曜日`) or a table of contents, not headings."""
    index = 0
    while index < len(marks):
        mark, end = marks[index], index + 1
        if mark is not None:
            while end < len(marks) and not marks[end - 1].body:  # type: ignore[union-attr]
                following = marks[end]
                if following is None or following.rank != mark.rank:
                    break
                end += 1
            if end - index >= 2:
                marks[index:end] = [None] * (end - index)
        index = end


def _drop_unsequenced(marks: list[NumberingMark | None]) -> None:
    """Unmark each dotted number with no neighbour in a numbering (`unsequenced`)."""
    for index in unsequenced([dotted_number(mark) for mark in marks]):
        marks[index] = None


def unsequenced(numbers: Sequence[tuple[int, ...] | None]) -> list[int]:
    """The indexes of the dotted numbers with no neighbour in a numbering: a heading `2.3` comes with a `2.2` or
    `2.4`, its parent `2`, or a child `2.3.1`, and a lone one starts at 1 (`1 Introduction`). A line that only starts
    with a number (`10 Downing Street`, `24 Hour Service`, a running header `38 Chapter 3`) has none."""
    present = {number for number in numbers if number is not None}
    lone: list[int] = []
    for index, number in enumerate(numbers):
        if number is None or number[-1] == 1:
            continue
        parent, last = number[:-1], number[-1]
        related = (
            (*parent, last - 1) in present
            or (*parent, last + 1) in present
            or (parent and parent in present)
            or any(other[: len(number)] == number and len(other) > len(number) for other in present)
        )
        if not related:
            lone.append(index)
    return lone


def dotted_number(mark: NumberingMark | None) -> tuple[int, ...] | None:
    """The parts of a mark's dotted number (`2.3.1` is (2, 3, 1)); None for other kinds of marks."""
    if mark is None or not _DOTTED_RANK < mark.rank < _PARENTHESISED_RANK:
        return None
    dotted = _DOTTED.match(unicodedata.normalize("NFKC", mark.heading))
    return tuple(int(part) for part in dotted.group(1).split(".")) if dotted else None


def section_paths(blocks: Iterable[Block]) -> Iterator[tuple[Block, tuple[str, ...]]]:
    """Pair every block with the titles of the headings above it (a heading includes itself)."""
    stack: list[tuple[int, str]] = []
    for block in blocks:
        if block.kind == "heading":
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, " ".join(block.text.split())))
        yield block, tuple(title for _, title in stack)
