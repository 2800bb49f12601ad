"""Which paragraph candidates are headings, and at which level.

Evidence in order of strength: the document outline (bookmarks), numbering patterns (`1.2.3 Title`,
`Chapter 4`, `第一章`, `第1節`), then typography (a font clearly larger than the body text, or a short bold line).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import TypeVar

from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.form_fields import is_form_field
from docshelf.parsers.pdf.pdf_leader_tables import LEADER
from docshelf.parsers.pdf.pdf_numbering import explicit_marker, lone_numbers, numbering_level
from docshelf.parsers.pdf.pdf_paragraphs import BULLET_GLYPHS, TextBlock
from docshelf.scripts import no_space_script
from docshelf.structure import bare_label, numbering_mark

MAX_SIZE_LEVEL = 4
LARGER_THAN_BODY = 1.15
TITLE_EXTRA_CHARS = 12  # `chapter12`, `appendixb`, `321`: a label beside a bookmark's title (normalised)
# A title under its chapter label (`Chapter 1` / `Executive Summary`) is set this much smaller or larger at most, and
# stands at most this many of the label's sizes below it.
TITLE_SIZE_RATIO = 1.6
TITLE_GAP_SIZES = 4.0
# A title on the baseline of its number (`1.1` `目的`, a quad or more apart) starts within this many sizes of it.
NUMBER_GAP_SIZES = 3.0
LIST_STEP_SIZES = 6.0  # a nested list is indented a few ems; a marker further right is in another column
# A bullet and its space, or a round bullet touching its item (`•基幹業務`).
_BULLET_GLYPH = re.compile(rf"^(?:[{BULLET_GLYPHS}]\s+|[•●◦▪■](?=[^\W\d_]))")
_NOTE_GLYPHS = "*∗—"
_ROUND_BULLETS = "•●○◦"
# A note's mark at the end of a heading (`\\thanks` on a title, `Chen Wei∗`, a reference ` ¹`) is no part of its title.
_NOTE_MARK = re.compile(r"\s?[*∗†‡]+$|\s[¹²³⁴⁵⁶⁷⁸⁹⁰]+$")
_LEADER_TAIL = re.compile(rf"{LEADER}\s*(?:\d{{1,4}}|[ivxlc]{{1,6}})")
_DOT_LEADER = re.compile(r"(?:\.\s?){4,}|…{2,}|(?:\s\.){3,}")
_TWO_LETTERS = re.compile(r"[^\W\d_].*?[^\W\d_]")
_NOT_TITLE_START = "—–-([{\"'“‘«"
_TRAILING_PUNCTUATION = (".", ",", ";", "。", "，", "；", "、")


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    title: str
    level: int
    page: int


_NOT_ALNUM = re.compile(r"[\W_]+")  # \w is exactly str.isalnum() plus "_"


def _normal(text: str) -> str:
    return _NOT_ALNUM.sub("", unicodedata.normalize("NFKC", text).casefold())


def _short(text: str, max_words: int = 20) -> bool:
    if no_space_script(text[:1] or " "):
        return len(text) <= 60
    return len(text) <= 160 and len(text.split()) <= max_words


def _has_letters(text: str) -> bool:
    return _TWO_LETTERS.search(text) is not None


def _heading_shaped(block: TextBlock) -> bool:
    text = block.text
    return (
        block.n_lines <= 3
        and _short(text)
        and _has_letters(text)
        and not text.endswith(_TRAILING_PUNCTUATION)
        and _DOT_LEADER.search(text) is None
    )


def size_levels(sizes: set[float]) -> dict[float, int]:
    """Heading levels from font sizes, largest first. Sizes within 12% of a level's largest share it
    (a cover page or one odd title must not push every real heading down), capped at MAX_SIZE_LEVEL."""
    levels: dict[float, int] = {}
    level, anchor = 0, 0.0
    for size in sorted(sizes, reverse=True):
        if not level or size < anchor / 1.12:
            level, anchor = level + 1, size
        levels[size] = min(level, MAX_SIZE_LEVEL)
    return levels


def body_size(blocks: list[TextBlock]) -> float:
    weights: Counter[float] = Counter()
    for block in blocks:
        weights[round(block.size * 2) / 2] += len(block.text)
    return weights.most_common(1)[0][0] if weights else 10.0


class HeadingClassifier:
    def __init__(self, blocks: list[TextBlock], outline: list[OutlineEntry]) -> None:
        blocks = [block for block in blocks if not block.aside]  # text beside the flow sets no type scale
        self.body = body_size(blocks)
        by_page: dict[int, list[TextBlock]] = defaultdict(list)
        for block in blocks:
            by_page[block.page].append(block)
        # Pages set in a smaller type than the document (sidebars, briefs) are judged against their own body.
        self.page_body = {page: min(self.body, body_size(page_blocks)) for page, page_blocks in by_page.items()}
        sizes = {
            round(block.size * 2) / 2 for block in blocks if self._larger_than_body(block) and _heading_shaped(block)
        }
        self.size_levels = size_levels(sizes)
        self.bold_level = min(MAX_SIZE_LEVEL + 1, max(self.size_levels.values(), default=0) + 1)
        italic_chars = sum(len(block.text) for block in blocks if block.italic)
        self.italic_body = italic_chars * 2 > sum(len(block.text) for block in blocks)
        # Where a number is a line's only sign of a heading (set in about the body type, not bold), a number with
        # no neighbour in the document's numbering is no sign (`38 第3章 数式の組版`, a running header).
        shaped = [block for block in blocks if block.text[:1].isdigit() and _heading_shaped(block)]
        self.lone_numbers = {
            id(shaped[index])
            for index in lone_numbers([block.text for block in shaped])
            if not (shaped[index].bold or self._larger_than_body(shaped[index]))
        }
        self.marked: set[int] = set()  # blocks whose level a bookmark or a number gave, not their type alone
        self.outline: dict[int, list[tuple[OutlineEntry, str]]] = defaultdict(list)
        for entry in outline:
            self.outline[entry.page].append((entry, _normal(entry.title)))
        self._page_blocks = by_page
        self._exact_on_page: dict[int, set[str]] = {}

    def _larger_than_body(self, block: TextBlock) -> bool:
        return block.size >= self.page_body.get(block.page, self.body) * LARGER_THAN_BODY

    def level(
        self, block: TextBlock, preceding: TextBlock | None = None, following: TextBlock | None = None
    ) -> int | None:
        if block.aside or block.toc_entry or block.code:
            return None
        outlined = self._outline_level(block)
        if outlined is not None:
            self.marked.add(id(block))
            return outlined
        body = self.page_body.get(block.page, self.body)
        if not _heading_shaped(block) or block.size < body - 0.5 or _bulleted(block) or is_form_field(block.text):
            return None
        emphasised = block.bold or block.size >= body + 0.5
        numbered = numbering_level(block.text) if id(block) not in self.lone_numbers else None
        if numbered is not None and (emphasised or not block.list_item):
            self.marked.add(id(block))
            return numbered if emphasised or numbered > 1 or explicit_marker(block.text) else None
        size_level = self.size_levels.get(round(block.size * 2) / 2)
        if size_level is not None and self._larger_than_body(block):
            return size_level
        if block.bold and not block.list_item and block.n_lines <= 2 and _short(block.text, 12):
            return self.bold_level
        if self._italic_title(block, preceding, following):
            return self.bold_level
        return None

    def _italic_title(self, block: TextBlock, preceding: TextBlock | None, following: TextBlock | None) -> bool:
        """A single italic body-size line between upright body paragraphs (a title set in italics, not a quote,
        an attribution or a lead-in ending with a colon)."""
        text = block.text
        if not block.italic or self.italic_body or block.n_lines != 1 or block.list_item or not _short(text, 8):
            return False
        if len(text.split()) < 2 or text[0] in _NOT_TITLE_START or text.endswith(":"):
            return False
        if preceding is not None and preceding.italic:
            return False
        if following is None or following.page != block.page or following.italic or following.bold:
            return False
        if following.text[:1].islower():
            return False  # the line broke off in mid-sentence
        body = self.page_body.get(block.page, self.body)
        return abs(following.size - block.size) < 0.5 and abs(following.size - body) < 0.5 and following.n_lines >= 2

    def _outline_level(self, block: TextBlock) -> int | None:
        candidates = self.outline.get(block.page)
        if not candidates or len(block.text) > 300:
            return None
        text = _normal(block.text)
        if not text:
            return None
        for index, (entry, title) in enumerate(candidates):
            if title and (text == title or self._holds_title(text, title, block.page)):
                del candidates[index]
                return entry.level
        return None

    def _exact(self, page: int) -> set[str]:
        """The page's lines as bookmark titles are compared (read when a line first holds a title more or less)."""
        exact = self._exact_on_page.get(page)
        if exact is None:
            exact = {_normal(block.text) for block in self._page_blocks.get(page, ()) if len(block.text) <= 300}
            self._exact_on_page[page] = exact
        return exact

    def _holds_title(self, text: str, title: str, page: int) -> bool:
        """A line that is a bookmark's title with a little more (`1.2`, `Chapter 3`, a page number) or a little less
        (the bookmark numbered, the line not), unless the page has a line that is the title exactly; a paragraph
        that only mentions the title is not its heading."""
        if title in self._exact(page):
            return False
        if text in title:
            return len(text) >= 0.8 * len(title)
        extra = len(text) - len(title)
        return extra <= TITLE_EXTRA_CHARS and (text.startswith(title) or text.endswith(title))


_Candidate = TypeVar("_Candidate")


def join_title_parts(candidates: list[_Candidate]) -> list[_Candidate]:
    """The candidates with each title set apart from its label joined to it as one block: a chapter label on a line
    of its own over its title in a similar emphasised type (`Chapter 1` / `Executive Summary`, `第1章` / `概要`), and
    a label or section number with its title on the same baseline beyond a gap (`1.1` `目的`), which reading order
    can take for two columns; and so a contents entry and the dot leader to its page number."""
    texts: list[TextBlock] = [candidate for candidate in candidates if isinstance(candidate, TextBlock)]
    if not texts:
        return candidates
    body = body_size(texts)
    result: list[_Candidate] = []
    for candidate in candidates:
        previous = result[-1] if result else None
        if isinstance(candidate, TextBlock) and isinstance(previous, TextBlock):
            joined = _title_parts(previous, candidate, body) or _leader_tail(previous, candidate)
            if joined is not None:
                result[-1] = joined  # type: ignore[assignment]  # a TextBlock replaces a TextBlock
                continue
        result.append(candidate)
    return result


def _title_parts(label: TextBlock, title: TextBlock, body: float) -> TextBlock | None:
    kind = bare_label(label.text) if len(label.text) <= 24 else None
    if kind is None or label.aside or title.aside or title.page != label.page or title.list_item:
        return None
    if not _heading_shaped(title) or numbering_mark(title.text) is not None or title.toc_entry:
        return None
    if not all(block.bold or block.size >= body + 0.5 for block in (label, title)):
        return None  # body text (a running header `2.11` `環境` in the body font) keeps its pieces
    same_row = _same_row(label, title)
    if same_row:
        gap = title.x0 - label.x1
        if not -1.0 <= gap <= NUMBER_GAP_SIZES * label.size or not 0.7 <= title.size / label.size <= 1.4:
            return None
    else:
        if kind != "chapter" or not 0 <= title.top - label.bottom <= TITLE_GAP_SIZES * max(label.size, title.size):
            return None
        if not 1 / TITLE_SIZE_RATIO <= title.size / label.size <= TITLE_SIZE_RATIO:
            return None
    return replace(
        label,
        text=f"{label.text} {title.text}",
        size=max(label.size, title.size),
        bold=label.bold and title.bold,
        n_lines=label.n_lines if same_row else label.n_lines + title.n_lines,
        top=min(label.top, title.top),
        bottom=max(label.bottom, title.bottom),
        x0=min(label.x0, title.x0),
        x1=max(label.x1, title.x1),
        italic=label.italic and title.italic,
    )


def _same_row(left: TextBlock, right: TextBlock) -> bool:
    height = min(left.bottom - left.top, right.bottom - right.top)
    return min(left.bottom, right.bottom) - max(left.top, right.top) >= 0.5 * height > 0


def _leader_tail(entry: TextBlock, leader: TextBlock) -> TextBlock | None:
    """The entry of a table of contents with the dot leader and page number right of it on its row."""
    if leader.page != entry.page or not _LEADER_TAIL.fullmatch(leader.text) or not _same_row(entry, leader):
        return None
    if leader.x0 < entry.x1 - 1.0:
        return None
    return replace(entry, text=f"{entry.text} {leader.text}", x1=leader.x1, toc_entry=True)


def _bulleted(block: TextBlock) -> bool:
    """A list item opened by a bullet (numbered titles, `1. Introduction`, are headings' own)."""
    return block.list_item and block.text[:1] in BULLET_GLYPHS


def classify(blocks: list[TextBlock], outline: list[OutlineEntry]) -> list[Block]:
    classifier = HeadingClassifier(blocks, outline)
    levels = [
        classifier.level(
            block, blocks[index - 1] if index else None, blocks[index + 1] if index + 1 < len(blocks) else None
        )
        for index, block in enumerate(blocks)
    ]
    for index in _title_block(blocks, levels, classifier):
        levels[index] = None
    nesting = _ListNesting()
    result: list[Block] = []
    for block, level in zip(blocks, levels, strict=True):
        list_level = nesting.level(block, heading=level is not None)
        if level is not None:
            result.append(Heading(text=_NOTE_MARK.sub("", block.text) or block.text, level=level, page=block.page))
        else:
            result.append(Paragraph(text=block.text, page=block.page, list_level=list_level, code=block.code))
    _drop_bullet_glyphs(result)
    return result


def _heads(blocks: list[TextBlock], above: list[int], middle: list[int], below: list[int]) -> bool:
    """Whether a row stands nearer the row below it than the row above it, as a heading stands nearer the text it
    heads."""
    top = min(blocks[index].top for index in middle)
    bottom = max(blocks[index].bottom for index in middle)
    gap_above = top - max(blocks[index].bottom for index in above)
    gap_below = min(blocks[index].top for index in below) - bottom
    return gap_below < gap_above


def _title_block(blocks: list[TextBlock], levels: list[int | None], classifier: HeadingClassifier) -> list[int]:
    """The lines under a document's title that its type alone made headings but that are its title block (authors,
    affiliations, a date): on the first page, the rows after its largest text, centred under it and narrower than
    the text, up to the first row that is not. The last of them stays a heading when body text follows it (a
    centred section title); a bookmark or a number keeps any."""
    page = blocks[0].page if blocks else 0
    indexes = [index for index, block in enumerate(blocks) if block.page == page and not block.aside]
    if len(indexes) < 2:
        return []
    title = max(indexes, key=lambda index: blocks[index].size)
    if levels[title] is None:
        return []
    left = min(blocks[index].x0 for index in indexes)
    width = max(blocks[index].x1 for index in indexes) - left
    centre, body = (blocks[title].x0 + blocks[title].x1) / 2, classifier.body
    rows: list[list[int]] = []
    for index in indexes[indexes.index(title) + 1 :]:
        if rows and _same_row(blocks[rows[-1][-1]], blocks[index]):
            rows[-1].append(index)
        else:
            rows.append([index])
    block_rows: list[list[int]] = []
    for row in rows:
        x0, x1 = min(blocks[index].x0 for index in row), max(blocks[index].x1 for index in row)
        centred = abs((x0 + x1) / 2 - centre) <= max(body, 0.03 * width) and x0 >= left + 2.0 * body
        running = any(blocks[index].n_lines >= 2 for index in row) and x1 - x0 >= 0.6 * width
        if not centred or running:
            body_text = all(levels[index] is None and abs(blocks[index].size - body) < 0.5 for index in row)
            last = len(block_rows) - 1
            if block_rows and body_text and _heads(blocks, rows[last - 1] if last else [title], rows[last], row):
                block_rows.pop()  # a centred section title over the text
            break
        block_rows.append(row)
    return [
        index
        for row in block_rows
        for index in row
        if levels[index] is not None and id(blocks[index]) not in classifier.marked
    ]


def _drop_bullet_glyphs(blocks: list[Block]) -> None:
    """A list item's bullet glyph is the Markdown `-`: it leaves the item's text where it is the list's marker, on a
    nested item or on two items or more of one level in one list. A glyph on one item alone may be content (a table
    of symbols, `· \\cdot`), and an asterisk or a dash at the first level marks notes and quotations as often; a
    round bullet (`•`, `●`, `○`, `◦`) marks an item even alone."""
    run: list[tuple[int, int, str]] = []  # (index, list level, glyph and its space) of the items of one list
    for index, block in enumerate([*blocks, None]):
        if isinstance(block, Paragraph) and block.list_level is not None:
            marker = _BULLET_GLYPH.match(block.text)
            run.append((index, block.list_level, marker.group() if marker else ""))
            continue
        if not run:
            continue
        counts = Counter((level, glyph[:1]) for _, level, glyph in run)
        for item, level, glyph in run:
            shared = counts[level, glyph[:1]] >= 2
            note_mark = glyph[:1] in _NOTE_GLYPHS and not level
            paragraph = blocks[item]
            alone_marks = glyph[:1] in _ROUND_BULLETS  # a round bullet is a list's marker even on one item
            if glyph and (shared or level or alone_marks) and not note_mark and isinstance(paragraph, Paragraph):
                blocks[item] = replace(paragraph, text=paragraph.text[len(glyph) :])
        run = []


class _ListNesting:
    """List levels from the indents of the items' markers: an item further right than the item before it (by half a
    size, at most LIST_STEP_SIZES) is nested one level deeper, one further left by a size or more goes back to the
    level of its indent (less is a marker set flush right: `ii.` starts left of `i.`). A heading, or text left of
    the list's first marker, ends the list."""

    def __init__(self) -> None:
        self.indents: list[float] = []

    def level(self, block: TextBlock, *, heading: bool) -> int | None:
        if heading or not block.list_item or block.aside:
            if heading or (self.indents and block.x0 < self.indents[0] - block.size):
                self.indents = []
            return None
        while self.indents and block.x0 < self.indents[-1] - block.size:
            self.indents.pop()
        if self.indents and block.x0 > self.indents[-1] + LIST_STEP_SIZES * block.size:
            self.indents = []  # the next column or a list elsewhere on the page
        if not self.indents or block.x0 > self.indents[-1] + 0.5 * block.size:
            self.indents.append(block.x0)
        return len(self.indents) - 1
