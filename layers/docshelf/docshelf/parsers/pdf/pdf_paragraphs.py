"""Merge the lines of one reading-order region into paragraphs (with de-hyphenation and CJK-aware joins)."""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

from docshelf.parsers.pdf.pdf_breaks import unspaced
from docshelf.parsers.pdf.pdf_code import code_text, is_code
from docshelf.parsers.pdf.pdf_hyphens import HYPHEN_BREAK, Vocabulary, resolve
from docshelf.parsers.pdf.pdf_lines import Line
from docshelf.parsers.pdf.pdf_numbering import numbering_level
from docshelf.scripts import no_space_script

_SMALL_ROMAN = r"(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})"  # i to xxxix
# A list item's marker: a bullet glyph and a space (`∗` is LaTeX's third level), a round bullet right before an
# item's first letter (`•基幹業務`), a number, a letter or a lower-case roman numeral (`ii.`, `(iv)`, `xii)`) with
# its dot or bracket.
BULLET_GLYPHS = "•●○◦▪▫■□‣⁃∙·◆◇►▶✓✔➢➤∗\\-–—*"
_BULLET = re.compile(
    rf"^(?:[{BULLET_GLYPHS}]\s|[•●◦▪■](?=[^\W\d_])|\(?\d{{1,2}}[.)]\s|\(?[a-z][.)]\s"
    rf"|\(?{_SMALL_ROMAN}[.)]\s)"
)
# A sentence ends at its stop, or at a raised note mark after it (`(Chen et al., 2017).⁴`).
_MARK = r"(?:\s?[⁰¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹,]*)?"
_SENTENCE_END = re.compile(r"[.!?:;。！？：；」』)]" + _MARK + "$")
_FULL_STOP = re.compile(r"[.!?]" + _MARK + "$")
_PAGE_NUMBER = re.compile(rf"\d{{1,4}}|(?i:{_SMALL_ROMAN})")
_LONE_NUMBER = re.compile(r"\d{1,2}[.)]")
_SIZE_CHANGE = 0.12
_SPACES = re.compile(r"  +")
MIN_CODE_ROWS = 2  # one monospaced line alone is an address, a file name or a label, not a listing
# Lines running on without ending a sentence, fewer of which tell nothing of how a text is set (`_ragged`).
RAGGED_MIN_LINES = 3
# A line stopping this share of the measure short, with room for the next line's first word, was broken there (a
# ragged line that wrapped stops short by less than its next word; a slide's points stop anywhere).
HAND_BROKEN_SHARE = 0.15
# The gap between the lines of a paragraph where no line wraps to tell it, in ems: single or 1.15 spacing leaves
# about half an em between the glyphs of two lines, one and a half spacing about one; paragraph spacing adds more.
UNWRAPPED_GAP_EM = 0.6
_CAPITALS_TITLE_LETTERS, _CAPITALS_TITLE_WORDS = 4, 8


@dataclass(slots=True)
class TextBlock:
    """A paragraph candidate with the typography the heading classifier needs."""

    text: str
    page: int
    size: float
    bold: bool
    n_lines: int
    list_item: bool
    top: float = 0.0
    bottom: float = 0.0
    italic: bool = False
    # Text beside the page's flow (a margin stamp set vertically): never a heading, and no break in a paragraph.
    aside: bool = False
    end_page: int = 0  # the page a paragraph rejoined across page breaks ends on, when not its first
    x0: float = 0.0
    x1: float = 0.0
    # A line ending in a page number set apart from its text (`第一章 概述      5`): an entry of a table of contents.
    toc_entry: bool = False
    code: bool = False  # lines of code (`pdf_code`): kept as lines, never a heading, never joined with text
    note: bool = False  # a footnote, moved to the end of its page's flow (`pdf_flow.take_footnotes`)
    # Set apart from the paragraph above it by where its first line stands (a wider gap, a line broken short),
    # which no rejoining across a column or page end undoes.
    parted: bool = False


def is_list_item(text: str) -> bool:
    return bool(_BULLET.match(text))


def _opens_item(text: str) -> bool:
    """A list item's first line, or its number alone: the fragment before a tab that sets the item's text apart."""
    return is_list_item(text) or _LONE_NUMBER.fullmatch(text) is not None


def paragraphs(lines: list[Line], page: int, *, code: bool = False) -> list[TextBlock]:
    """The lines' paragraphs; with `code`, lines in a monospaced font make code blocks of their own (`pdf_code`)."""
    if not lines:
        return []
    left_edge, right_edge = min(line.x0 for line in lines), max(line.x1 for line in lines)
    typical_gap = _typical_gap(lines)
    spaced = _spaced(lines, typical_gap)
    ragged = _ragged(lines, right_edge)
    edges = _right_edges(lines)
    measured = _measured(lines, right_edge)
    blocks: list[TextBlock] = []
    current: list[Line] = [lines[0]]
    parted = False  # whether the paragraph being gathered was set apart from the one before by its place alone
    for line in lines[1:]:
        previous = current[-1]
        apart = _broken_by_hand(current, line, edges, spaced=spaced)
        if not apart and _continues(current, line, typical_gap, right_edge, spaced=spaced, ragged=ragged, code=code):
            current.append(line)
            continue
        blocks.append(_block(current, page, (left_edge, right_edge), code=code, parted=parted))
        parted = apart or (
            _paragraph_gap(previous, line, typical_gap)
            and _same_type(previous, line)
            and not (measured and _fills(previous, right_edge))
        )  # a line filling the measure wrapped: a wider gap after it may be double spacing, or a page's stretch
        current = [line]
    blocks.append(_block(current, page, (left_edge, right_edge), code=code, parted=parted))
    return blocks


def _typical_gap(lines: list[Line]) -> float:
    """The gap between the lines of a paragraph: where a line fills the measure (which two lines or more reach)
    without ending a sentence, the text wraps, and those gaps tell; a page of one-line paragraphs (a memo's `To:`,
    `From:`, `Date:`) would otherwise take its paragraph gap for the line gap. Without a wrap, the median gap, at
    most UNWRAPPED_GAP_EM."""
    gaps: list[float] = []
    wraps: list[float] = []
    right_edge = max((line.x1 for line in lines), default=0.0)
    for a, b in itertools.pairwise(lines):
        if b.top < a.bottom - 1.0:
            continue
        gap = b.top - a.bottom
        gaps.append(gap)
        size = max(a.size, 1.0)
        if (
            _fills(a, right_edge)
            and abs(b.size - a.size) <= _SIZE_CHANGE * size
            and b.x0 <= a.x0 + 0.5 * size
            and _SENTENCE_END.search(a.text) is None
        ):
            wraps.append(gap)
    if not _measured(lines, right_edge):
        wraps = []  # one line alone does not show a measure: the longest of a page of short lines fills nothing
    if not gaps:
        return 0.0
    typical = statistics.median(gaps)
    if wraps:
        typical = min(typical, statistics.median(wraps))
    else:
        typical = min(typical, UNWRAPPED_GAP_EM * statistics.median(line.size for line in lines))
    return max(0.0, typical)


def _measured(lines: list[Line], right_edge: float) -> bool:
    """Whether two lines or more reach the right edge: the measure the text wraps at."""
    return sum(_fills(line, right_edge) for line in lines) >= 2


def _fills(line: Line, right_edge: float) -> bool:
    """Whether the line reaches within two of its font sizes of the right edge."""
    return line.x1 >= right_edge - 2.0 * max(line.size, 1.0)


def _same_type(previous: Line, line: Line) -> bool:
    return abs(line.size - previous.size) <= _SIZE_CHANGE * max(line.size, previous.size, 1.0)


def _right_edges(lines: list[Line]) -> dict[float, float]:
    """The right edge of the lines of each type size (rounded), which a title in a larger type does not set."""
    edges: dict[float, float] = {}
    for line in lines:
        size = round(line.size)
        edges[size] = max(edges.get(size, line.x1), line.x1)
    return edges


def _broken_by_hand(current: list[Line], line: Line, edges: dict[float, float], *, spaced: bool) -> bool:
    """Whether the paragraph's last line was broken where it stops, not wrapped: it stopped HAND_BROKEN_SHARE of the
    measure short, and an em short of where the next line's first word would have ended, under the right edge of
    the lines of its size (a slide's points, a form's fields, the last line of a paragraph that ends no sentence).
    Not between lines of two sizes or side by side, before a hyphen's rest, an address, a range or a lower-case word
    going on with a sentence, under a numbered entry's hanging indent, after a sentence where gaps set paragraphs
    apart, nor in Chinese or Japanese text, which breaks anywhere."""
    previous = current[-1]
    if not _same_type(previous, line) or _same_row(previous, line) or is_code(previous):
        return False
    if previous.text.endswith(("-", "‐")) or unspaced(previous.text, line.text):
        return False
    ends_sentence = _SENTENCE_END.search(previous.text) is not None
    edge = _edge(previous, edges)
    if (
        line.text[:1].islower()
        and not ends_sentence
        and (len(current) > 1 or previous.x1 - previous.x0 >= 0.5 * (edge - previous.x0))
    ):
        return False  # a sentence going on: in a wrapped paragraph (`only with the written` / `consent…`), or after
        # a line too long for a point or a label
    if previous.text[:1].isdigit() and line.x0 > previous.x0 + 0.5 * line.size and not ends_sentence:
        return False  # a numbered entry's hanging indent: its title runs on (`162 Responding to the` / `Material…`)
    if spaced and _next_sentence(current, line):
        return False  # where gaps set paragraphs apart, a line break after a sentence is inside its paragraph
    if (no_space_script(previous.text[-1:]) or no_space_script(line.text[:1])) and not ends_sentence:
        return False  # a narrow box's Chinese or Japanese lines break anywhere, before a Latin word too
    size = max(previous.size, line.size, 1.0)
    short_by = (edge - previous.x1) / max(edge - min(previous.x0, line.x0), size)
    return short_by >= HAND_BROKEN_SHARE and _next_word_fits(previous, line, edge - size)


def _edge(line: Line, edges: dict[float, float]) -> float:
    """The right edge of the lines of the line's size (`_right_edges`)."""
    return edges.get(round(line.size), line.x1)


def _spaced(lines: list[Line], typical_gap: float) -> bool:
    """Whether the lines set their paragraphs apart by a wider gap: two lines in one type, the first ending a
    sentence, stand further apart than the lines do. Then the gaps carry the paragraph breaks, and a short line
    ending a sentence at the lines' gap does not end its paragraph (ragged-right text, as word processors set it)."""
    return any(
        (previous.size, previous.bold) == (line.size, line.bold)
        and _paragraph_gap(previous, line, typical_gap)
        and _SENTENCE_END.search(previous.text) is not None
        and not _numbered_title(line)
        for previous, line in itertools.pairwise(lines)
    )


def _ragged(lines: list[Line], right_edge: float) -> bool:
    """Whether the lines are set ragged-right (a word processor's or a browser's default): of the lines of three
    words or more that run on to a next line without ending a sentence, RAGGED_MIN_LINES or more, fewer than half
    end within half an em of the right edge. Justified text brings every such line to the edge."""
    running = [
        line
        for line in lines[:-1]
        if line.text.count(" ") >= 2 and _SENTENCE_END.search(line.text) is None and not is_code(line)
    ]
    if len(running) < RAGGED_MIN_LINES:
        return False
    at_edge = sum(1 for line in running if line.x1 >= right_edge - 0.5 * max(line.size, 1.0))
    return 2 * at_edge < len(running)


def _paragraph_gap(previous: Line, line: Line, typical_gap: float) -> bool:
    size = max(line.size, previous.size, 1.0)
    return line.top - previous.bottom > max(typical_gap + 0.4 * size, 0.5 * size)


def _same_row(previous: Line, line: Line) -> bool:
    return line.top < previous.bottom - 0.5 * min(line.bottom - line.top, previous.bottom - previous.top)


def _continues(
    current: list[Line], line: Line, typical_gap: float, right_edge: float, *, spaced: bool, ragged: bool, code: bool
) -> bool:
    previous = current[-1]
    if _same_row(previous, line):
        return True  # another fragment of the same visual row
    size = max(line.size, previous.size, 1.0)
    gap = line.top - previous.bottom
    if _paragraph_gap(previous, line, typical_gap) or gap < -size:
        return False
    if code and _code_line(line) != _code_line(previous):
        return False
    if code and _code_line(line):
        return _same_type(previous, line)  # short lines, stops and indents are code's
    if not _same_type(previous, line) or line.bold != previous.bold:
        return False
    # A heading set in its own face (slightly larger, or italic) ends where the text wraps below it.
    wrapped_below = line.x0 < previous.x1 and line.top > previous.top + 0.5 * size
    restyled = previous.font and line.font and previous.font != line.font and abs(line.size - previous.size) >= 0.5
    if restyled and wrapped_below and line.height > 0 < previous.height:
        return False
    if _opens_item(line.text) and not _number_runs_on(current, line, right_edge - 2.0 * size):
        return False
    short = previous.x1 < right_edge - 2.0 * size
    if _entry_ends(current, line, right_edge, short=short):
        return False
    sentence_end = _SENTENCE_END.search(previous.text) is not None
    if (short or sentence_end) and _numbered_title(line) and not _wraps_on(previous, line, right_edge - 2.0 * size):
        return False  # a numbered title line (`2.1 Safety notes`, `第1条（目的）`) in the body font is not body text
    if short and len(current) == 1 and (_numbered_title(previous) or _capitals_title(previous, line)):
        return False
    if short and wrapped_below and line.italic != previous.italic:
        return False
    if (
        short
        and sentence_end
        and not unspaced(previous.text, line.text)
        and not (spaced and _next_sentence(current, line))
        and (not ragged or _next_word_fits(previous, line, right_edge) or _outdented(current, line))
    ):
        # Where the gaps do not tell paragraphs apart, a short line ending a sentence ends one, unless the text is
        # ragged-right and the word after it would not have fitted on it (and it runs on in line).
        return False
    indented = line.x0 > previous.x0 + 1.0 * size
    return not (indented and len(current) > 1 and not is_list_item(current[0].text))


def _entry_ends(current: list[Line], line: Line, right_edge: float, *, short: bool) -> bool:
    """Whether a line is the paragraph after a list item (`_item_ends`), or a short line alone stands over an indented
    block as a term over its definition (`<dt>` and `<dd>`)."""
    if is_list_item(current[0].text):
        return _item_ends(current[0], line, short=short)
    return len(current) == 1 and _sets_in(current[0], line, right_edge, max(line.size, current[0].size, 1.0))


def _sets_in(previous: Line, line: Line, right_edge: float, size: float) -> bool:
    """Whether a line below the line above (not a subscript beside it) starts an em right of it and runs on an em
    past its end (a centred title's shorter next line starts right of it too, but ends before it), and the line
    above stopped short of the first word below it: it was broken, not wrapped."""
    if not (line.top >= previous.bottom and line.x0 > previous.x0 + size and line.x1 > previous.x1 + size):
        return False
    return _next_word_fits(previous, line, right_edge)


def _next_word_fits(previous: Line, line: Line, right_edge: float) -> bool:
    """Whether the line's first word, and a space, would have fitted at the end of the line above (its width
    estimated from the line's: characters of one face are about as wide): if so, that line was broken there, not
    wrapped."""
    first_word = line.text[:1] if no_space_script(line.text[:1]) else line.text.split(" ", 1)[0]
    width = (line.x1 - line.x0) * (len(first_word) + 1) / max(len(line.text), 1)
    return previous.x1 + width < right_edge


def _broken_short(previous: Line, line: Line, edges: tuple[float, float]) -> bool:
    """Two CJK lines centred between the edges of the text, short of both, were broken by hand, not wrapped: a title
    block's author and date. The next line goes on after a space, as it would in other scripts (`市政工程研究院
    2023年6月`). Lines of a justified block set in from both sides (a quotation) share their edges: no space."""
    size = max(previous.size, line.size, 1.0)
    if previous.x1 >= edges[1] - 2.0 * size:
        return False  # the usual case: a line wrapped at the right edge
    centre = (edges[0] + edges[1]) / 2
    for part in (previous, line):
        if part.x0 <= edges[0] + 2.0 * size or part.x1 >= edges[1] - 2.0 * size:
            return False
        if abs((part.x0 + part.x1) / 2 - centre) > size:
            return False
    if (abs(previous.x0 - line.x0) < 1.0 and abs(previous.x1 - line.x1) < 1.0) or not previous.text or not line.text:
        return False
    return no_space_script(previous.text[-1]) or no_space_script(line.text[0])


def _capitals_title(title: Line, line: Line) -> bool:
    """A short line in capitals over a line of running text (`INTRODUCTION` set in the body font): a title."""
    text = title.text
    letters = [char for char in text if char.isalpha()]
    return (
        len(letters) >= _CAPITALS_TITLE_LETTERS
        and all(map(str.isupper, letters))  # Han or kana have no capitals: such a line is no title in capitals
        and _SENTENCE_END.search(text) is None
        and len(text.split()) <= _CAPITALS_TITLE_WORDS
        and any(char.islower() for char in line.text)
    )


def _wraps_on(previous: Line, line: Line, full_width: float) -> bool:
    """After a full stop, a numbered line running on to the right edge opens a sentence (`12 Wells were dry in…`)."""
    return line.x1 >= full_width and _FULL_STOP.search(previous.text) is not None


def _next_sentence(current: list[Line], line: Line) -> bool:
    """Whether, after a line ending with a full stop, the line opens the paragraph's next sentence (ragged-right
    text): a capital at the line's left edge, not indented, no bullet, number or code, nor set out left of the
    paragraph's own running lines (the next term of a definition list after its definition)."""
    previous = current[-1]
    indent = line.x0 - previous.x0
    return (
        _FULL_STOP.search(previous.text) is not None
        and line.text[:1].isupper()
        and indent < 0.5 * line.size
        and not _outdented(current, line)
    )


def _outdented(current: list[Line], line: Line) -> bool:
    """Whether the line starts an em left of the paragraph's running line above it (the next entry of a hanging
    list, the next term of a definition list)."""
    return len(current) > 1 and line.x0 < current[-1].x0 - line.size


_RUNNING_NUMBER = re.compile(r"^(\d{1,3})[.)]\s")


def _number_runs_on(current: list[Line], line: Line, full_width: float) -> bool:
    """A line opening with `27.` after a line that fills the measure without ending a sentence goes on with that
    sentence (`served by routes 4, 11 and` / `27. The station is…`), outside a list (whose first item is 1)."""
    number = _RUNNING_NUMBER.match(line.text)
    previous = current[-1]
    return (
        number is not None
        and int(number.group(1)) > 1
        and previous.x1 >= full_width
        and _SENTENCE_END.search(previous.text) is None
        and not is_list_item(current[0].text)
    )


def _item_ends(item: Line, line: Line, *, short: bool) -> bool:
    """Whether a line is the paragraph after a list item: set out left of the item's label, or at the label's edge
    after a line that stopped short (a wrapped item fills its line, and runs on at its text's indent)."""
    size = max(line.size, 1.0)
    return line.x0 < item.x0 - 0.5 * size or (short and line.x0 < item.x0 + 0.5 * size)


def _numbered_title(line: Line) -> bool:
    return numbering_level(line.text) is not None and _SENTENCE_END.search(line.text) is None


def join_lines(texts: list[str], *, marked: bool = False) -> str:
    """The lines as one text. A word hyphenated at a line end is rejoined or keeps its hyphen by the rule of
    pdf_hyphens; with `marked` the break stays marked (HYPHEN_BREAK) for the document's own words to decide."""
    text = _joined(texts)
    return text if marked else resolve(text, Vocabulary())


def _joined(texts: list[str]) -> str:
    parts: list[str] = []
    for text in texts:
        if not parts:
            parts.append(text)
            continue
        tail = parts[-1]
        if unspaced(tail, text):
            parts.append(text)  # a web or e-mail address or a number range broken at the line end goes on
            continue
        if len(tail) > 1 and tail.endswith("-") and tail[-2].isalpha() and text[:1].isalnum():
            parts[-1] = tail[:-1] + HYPHEN_BREAK  # a word broken at the line end, or a hyphenated one
        elif not (no_space_script(tail[-1]) or no_space_script(text[0])):
            parts.append(" ")  # a line break is no space where CJK text meets it on either side
        parts.append(text)
    return "".join(parts)


def _block(
    lines: list[Line], page: int, edges: tuple[float, float], *, code: bool = False, parted: bool = False
) -> TextBlock:
    main = max(lines, key=lambda line: len(line.text))
    n_rows = len({round(line.top) for line in lines})
    code = code and n_rows >= MIN_CODE_ROWS and all(_code_line(line) for line in lines)
    # Outside code, a monospaced line's column spaces (`pdf_lines._normal_spaces`) are word spaces.
    text = code_text(_rows(lines)) if code else _SPACES.sub(" ", _joined_rows(lines, edges))
    return TextBlock(
        text=text,
        page=page,
        top=min(line.top for line in lines),
        bottom=max(line.bottom for line in lines),
        size=main.size,
        bold=all(line.bold for line in lines),
        n_lines=n_rows,
        list_item=not code and is_list_item(text),
        italic=all(line.italic for line in lines),
        x0=min(line.x0 for line in lines),
        x1=max(line.x1 for line in lines),
        toc_entry=not code
        and len(lines) > 1
        and _PAGE_NUMBER.fullmatch(lines[-1].text) is not None
        and _same_row(*lines[-2:]),
        code=code,
        parted=parted,
    )


def _rows(lines: list[Line]) -> list[list[Line]]:
    """The lines grouped by visual row (`_same_row` with the line before)."""
    rows = [[lines[0]]]
    for previous, line in itertools.pairwise(lines):
        if _same_row(previous, line):
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def _joined_rows(lines: list[Line], edges: tuple[float, float]) -> str:
    rows = [lines[0].text]
    for previous, line in itertools.pairwise(lines):
        if _same_row(previous, line) or _broken_short(previous, line, edges):
            # Fragments of one row stand an em or more apart (pdf_lines): a space, in CJK text too (`2.1 漏损率变化`).
            rows[-1] = f"{rows[-1]} {line.text}"
        else:
            rows.append(line.text)
    return join_lines(rows, marked=True)


def _code_line(line: Line) -> bool:
    """A line of code: monospaced, and no list item (a list of addresses set in a typewriter face)."""
    return is_code(line) and not is_list_item(line.text)
