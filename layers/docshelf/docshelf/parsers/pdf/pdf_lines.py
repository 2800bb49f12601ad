"""Group text runs into line fragments: runs on one baseline, split where a wide gap (a gutter) separates them. On a
page (`page_lines`), the runs on either side of the page's gutters (`pdf_layout.page_gutters`) make their lines apart,
however close a row's runs stand across one.

A run set smaller and raised above the line (a reference mark, an exponent) is written in superscript characters
where they all exist: `km²`, `10⁻³` (a fraction's numerator before its slash stays: `1⁄4`). NFKC, which the index
analyzer applies, folds `people¹` back into the one term `people1`, so a mark after a word is set off by a space
(`people ¹`): the word stays a word to search, while an exponent stays on its number, unit or variable.
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from docshelf.parsers.fonts import monospaced
from docshelf.parsers.pdf.pdf_bidi import logical_line
from docshelf.parsers.pdf.pdf_chars import SPACE_GAP_EM
from docshelf.parsers.pdf.pdf_layout import Gutter, overfull_bridges, page_gutters
from docshelf.parsers.pdf.pdf_text import FIGURE, Run
from docshelf.scripts import has_cjk_letter, no_space_script

_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_LTR = re.compile(r"[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]")

# A gap wider than this many font sizes ends a line fragment (columns, table cells, tab stops), unless it is a word
# space a justified line stretched (`_stretched_word_spaces`): no wider than JUSTIFIED_GAP_EM, among the words of the
# rows within NEIGHBOUR_ROWS_EM, or as wide as such a gap of its row within EQUAL_GAPS_EM.
FRAGMENT_GAP_EM = 1.0
# Vertical runs within this many font sizes of one another across the line, and this far apart along it, are glyphs
# of one line (`_vertical_groups`).
VERTICAL_COLUMN_EM = 0.5
VERTICAL_GLYPH_GAP_EM = 0.6
VERTICAL_WORD_GAP_EM = 0.25
JUSTIFIED_GAP_EM = 8.0
NEIGHBOUR_ROWS_EM = 4.0
EQUAL_GAPS_EM = 0.05
# Runs whose ink stands SPACE_GAP_EM font sizes apart or less (`pdf_chars`) are glued without a space (kerning splits,
# per-glyph objects), and so are runs whose glyph boxes (origin to advance, `pdf_chars.GlyphAdvances`) stand this
# many font sizes apart or less, whatever their ink (pdftotext's word break; the ink rule allows for side bearings).
ADVANCE_GAP_EM = 0.1
_CLOSING = re.compile(r"[.,;:!?)\]]")  # punctuation that follows a raised mark without a space (`effects¹.`)
# A space ending a run whose next run starts within this many font sizes of where the letter before the space ends
# stands for no gap: no word space (`_overlapped_space`).
OVERLAPPED_SPACE_EM = 0.05
# A run starting this many font sizes left of where the run before it ends stands over it: another object placed on
# the same row (a text box over a table's cell), not the next letters of its word.
OVER_ANOTHER_EM = 1.0
# Gaps between this many pairs of single letters, one text object each, EVEN_SHARE of them within EVEN_TRACKING_EM
# of their median, tell a letter-spaced fragment's tracking.
LETTER_SPACED_PAIRS = 4
EVEN_SHARE = 0.75
EVEN_TRACKING_EM = 0.05
MAJORITY_FONT_SHARE = 0.8
MIN_HEIGHT_EM = 0.6
# Gaps up to these many font sizes join CJK runs without a space: between two CJK runs, and between a CJK run and
# a Latin or digit run.
CJK_GAP_EM = 1.0
MIXED_SCRIPT_GAP_EM = 0.75
# A run at most this share of the line's font size whose bottom stands this many of the line's font sizes above
# the bottom of the line's main run is raised: a superscript.
SUPERSCRIPT_SIZE_SHARE = 0.85
SUPERSCRIPT_RISE_EM = 0.3
# A run that small whose baseline stands at most this many of a line's font sizes above the line's baseline is set
# on that line (a raised mark), however little its glyph box meets the line's; so is a run whose baseline is within
# SAME_BASELINE_EM of the line's (an accent set apart, a dot of one point's height).
SUPERSCRIPT_MAX_RISE_EM = 0.6
SAME_BASELINE_EM = 0.3
# Glyphs reaching further below their baseline than this many font sizes do not stand on it (descenders reach 0.25).
BASELINE_DROP_EM = 0.4
_SUPERSCRIPTS = str.maketrans("0123456789+-−=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ")
_SUPERSCRIPT_TEXT = re.compile(r"\s*[0-9+\-−=()ni][0-9+\-−=()ni,\s]*")
_SUPERSCRIPT_CORE = re.compile(r"[0-9ni]")
_PLAIN_RAISED = re.compile(r"[\[\]]|[A-Za-z]{2}")  # a bracket, or a word rather than an exponent
_LAST_WORD = re.compile(r"[^\W\d_]+$")
_FRACTION_SLASHES = ("⁄", "/")
_LEADER_DOTS = ".·…"
_OTHER_SPACE = re.compile(r"[^\S ]+")  # whitespace other than the space


@dataclass(slots=True)
class Line:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    rtl: bool = False
    vertical: bool = False
    italic: bool = False
    font: str = ""  # the font of most of the line's characters; empty when no font has a clear majority

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def __reduce__(
        self,
    ) -> tuple[type[Line], tuple[str, float, float, float, float, float, bool, bool, bool, bool, str]]:
        # Lines cross process boundaries by the thousand (pdf_workers); a positional tuple pickles ~3x faster
        # than the field-by-field state of a slots dataclass.
        fields = (self.text, self.x0, self.top, self.x1, self.bottom, self.size, self.bold)
        return Line, (*fields, self.rtl, self.vertical, self.italic, self.font)


def is_rtl(text: str) -> bool:
    rtl = len(_RTL.findall(text))
    return rtl > 0 and rtl >= len(_LTR.findall(text))


def build_lines(runs: list[Run]) -> list[Line]:
    """Line fragments in top-to-bottom, then left-to-right order."""
    return _lines(runs, text_rows([run for run in runs if not run.vertical]))


def page_lines(runs: list[Run], rows: list[list[Run]] | None = None) -> tuple[list[Line], list[Gutter]]:
    """A page's line fragments (as `build_lines`) and its gutters; the runs on either side of a gutter are grouped
    into rows apart, so that neither a line nor a raised mark is drawn across it. `rows` are the `text_rows` of the
    runs that are not vertical, when an earlier step made them."""
    horizontal = [run for run in runs if not run.vertical]
    if rows is None:
        rows = text_rows(horizontal)
    # Without a row of two runs there is no gap to find a gutter in (pages set one line to a text object).
    gutters = page_gutters(rows, body_size(horizontal)) if any(len(row) > 1 for row in rows) else []
    if gutters:
        sides = gutters + overfull_bridges(gutters, rows)
        parts: dict[tuple[bool | None, ...], list[Run]] = {}
        for run in horizontal:
            middle = (run.top + run.bottom) / 2
            key = tuple(
                (run.x0 + run.x1) / 2 > (g.x0 + g.x1) / 2 if g.top <= middle <= g.bottom else None for g in sides
            )
            parts.setdefault(key, []).append(run)
        rows = sorted((row for part in parts.values() for row in text_rows(part)), key=lambda r: r[0].top + r[0].bottom)
    return _lines(runs, rows), gutters


def _lines(runs: list[Run], rows: list[list[Run]]) -> list[Line]:
    lines = vertical_lines([run for run in runs if run.vertical])
    for index, row in enumerate(rows):
        rtl = is_rtl("".join(run.text for run in row))
        row.sort(key=lambda run: run.x0)
        word_spaces: set[int] | None = None  # found for the row at its first wide gap after a written space
        fragment: list[Run] = []
        fragment_x1 = 0.0
        for run in row:
            if fragment:
                previous = fragment[-1]
                if run.text == previous.text and abs(run.x0 - previous.x0) < 1.0:
                    continue  # the same text drawn twice to fake bold or a shadow
                size = max(run.size, previous.size, 1.0)
                if run.x0 - fragment_x1 > FRAGMENT_GAP_EM * size:
                    if _ends_word(previous, run) and word_spaces is None:
                        word_spaces = _stretched_word_spaces(row, rows, index)
                    if not word_spaces or id(run) not in word_spaces:
                        lines.append(_make_line(fragment, rtl))
                        fragment = []
            fragment_x1 = max(fragment_x1, run.x1) if fragment else run.x1
            fragment.append(run)
        if fragment:
            lines.append(_make_line(fragment, rtl))
    return lines


def vertical_lines(runs: list[Run]) -> list[Line]:
    """The lines of vertical runs (text turned on its side), in the order they were drawn."""
    return [_vertical_line(group) for group in _vertical_groups(runs)]


def _vertical_groups(runs: list[Run]) -> list[list[Run]]:
    """Vertical runs in the order they were drawn, those that follow one another along one column (a glyph per text
    object, as Calc writes a header turned on its side) in one group."""
    groups: list[list[Run]] = []
    for run in runs:
        if groups:
            last = groups[-1][-1]
            size = max(run.size, last.size, 1.0)
            if abs(run.x0 - last.x0) <= VERTICAL_COLUMN_EM * size and _along(last, run) <= VERTICAL_GLYPH_GAP_EM * size:
                groups[-1].append(run)
                continue
        groups.append([run])
    return groups


def _along(first: Run, second: Run) -> float:
    """The gap between two vertical runs along their line, whichever way it runs."""
    return max(second.top - first.bottom, first.top - second.bottom)


def _vertical_line(runs: list[Run]) -> Line:
    """One vertical line of runs drawn in reading order: their texts run together, a space where a glyph object
    holds one (`t `) or the glyphs stand VERTICAL_WORD_GAP_EM apart."""
    if len(runs) == 1:
        return _make_line(runs, is_rtl(runs[0].text), vertical=True)
    parts = [runs[0].text]
    for previous, run in itertools.pairwise(runs):
        if (
            _along(previous, run) > VERTICAL_WORD_GAP_EM * max(run.size, previous.size, 1.0)
            and not previous.text[-1:].isspace()
        ):
            parts.append(" ")
        parts.append(run.text)
    text = " ".join("".join(parts).split())
    main = max(runs, key=lambda run: len(run.text.strip()))
    return Line(
        text=text,
        x0=min(run.x0 for run in runs),
        top=min(run.top for run in runs),
        x1=max(run.x1 for run in runs),
        bottom=max(run.bottom for run in runs),
        size=main.size,
        bold=all(run.bold for run in runs if run.text.strip()),
        rtl=is_rtl(text),
        vertical=True,
        italic=all(run.italic for run in runs if run.text.strip()),
        font=_majority_font(runs),
    )


def _stretched_word_spaces(row: list[Run], rows: list[list[Run]], index: int) -> set[int]:
    """The runs (by id) of a row, sorted by x, before which a gap wider than FRAGMENT_GAP_EM is a word space that
    justification stretched rather than a gutter, a tab stop or a table column: the run before the gap ends with a
    space the producer wrote (none is written before a column), the gap is at most JUSTIFIED_GAP_EM wide, and the
    nearest rows that have ink on both sides of it share no empty band in it (`_beside_words`). Justification
    stretches the spaces of a line alike, so a gap as wide as one taken is taken too (a river of spaces running
    down a narrow column leaves a band empty in two rows now and then)."""
    candidates: list[tuple[int, float, float, bool]] = []
    previous: Run | None = None
    right_edge = 0.0
    for run in row:
        if previous is not None and _ends_word(previous, run) and not _figures(previous, run):
            size = max(run.size, previous.size, 1.0)
            gap = run.x0 - right_edge
            if FRAGMENT_GAP_EM * size < gap <= JUSTIFIED_GAP_EM * size:
                beside = _beside_words(run.x0 - gap, run.x0, previous.font, size, rows, index)
                candidates.append((id(run), run_gaps(previous, run)[1], size, beside))
        right_edge = max(right_edge, run.x1) if previous is not None else run.x1
        previous = run
    return {
        key
        for number, (key, gap, size, beside) in enumerate(candidates)
        if beside
        or any(abs(gap - other[1]) <= EQUAL_GAPS_EM * size for other in candidates[:number] + candidates[number + 1 :])
    }


def _figures(left: Run, right: Run) -> bool:
    """Two runs that are both figures (`12,553`, `(81)`, `—`): a justified line stretches the spaces of its words,
    a table's row of figures only looks like one when its columns are set equally far apart."""
    return FIGURE.fullmatch(left.text.strip()) is not None and FIGURE.fullmatch(right.text.strip()) is not None


def _ends_word(run: Run, following: Run) -> bool:
    """Whether a gap after the run may be a word space: the producer wrote one at its end (none is written before a
    column), or it is a mark raised over the text that follows it (`year.¹ Narrow`: a browser writes the space
    after a `<sup>` nowhere)."""
    return run.written_space or _raised(run, following)


def _beside_words(start: float, end: float, font: str, size: float, rows: list[list[Run]], index: int) -> bool:
    """Whether the gap [start, end] of row `index` lies among words: at least two of the four nearest rows (within
    NEIGHBOUR_ROWS_EM, with text in the font before the gap: lines of the same paragraph, not a title over body
    text) have ink on both sides of its middle, and no two of them leave one band of it empty, half the gap wide or
    an em. A gutter is such a band in every row beside it, whatever indents and ragged ends its columns have; a
    justified column's words fill the gap's place in the lines above and below."""
    middle, band = (start + end) / 2, min((end - start) / 2, size)
    top = rows[index][0].top
    empty: list[list[tuple[float, float]]] = []
    for other in [*rows[max(0, index - 2) : index], *rows[index + 1 : index + 3]]:
        if abs(other[0].top - top) > NEIGHBOUR_ROWS_EM * size or all(run.font != font for run in other):
            continue
        if any(run.x0 < middle for run in other) and any(run.x1 > middle for run in other):
            empty.append(_empty_bands(other, start, end))
    if len(empty) < 2:
        return False
    for first, second in itertools.combinations(empty, 2):
        for a0, a1 in first:
            if any(min(a1, b1) - max(a0, b0) >= band for b0, b1 in second):
                return False
    return True


def _empty_bands(row: list[Run], start: float, end: float) -> list[tuple[float, float]]:
    """The intervals of [start, end] without ink of the row's runs."""
    bands: list[tuple[float, float]] = []
    cursor = start
    for x0, x1 in sorted((run.x0, run.x1) for run in row if run.x1 > start and run.x0 < end):
        if x0 > cursor:
            bands.append((cursor, x0))
        cursor = max(cursor, x1)
    if cursor < end:
        bands.append((cursor, end))
    return bands


def body_size(lines: Sequence[Line] | Sequence[Run]) -> float:
    """The font size of most of the lines' (or runs') characters (10 without any)."""
    weights: dict[float, int] = {}
    for line in lines:
        weights[line.size] = weights.get(line.size, 0) + len(line.text)
    return max(weights.items(), key=lambda item: item[1])[0] if weights else 10.0


def text_rows(runs: list[Run]) -> list[list[Run]]:
    """Top-down rows: cluster runs whose vertical extents overlap by at least half of the smaller one. A run much
    taller than the row starts a row of its own, the row counting at least MIN_HEIGHT_EM of its size: a glyph's
    box can be a sliver (the bar of `ー` set in a font of its own), and the line it opens must still take the rest.
    By the baselines, a run on the baseline of the row's main run joins it, and so does a small run raised on it
    standing beside the row, or a row of such runs the run they are raised on: a footnote mark over `every page`
    meets its glyph boxes too little."""
    rows: list[list[Run]] = []
    row_top = row_bottom = row_size = row_x0 = row_x1 = 0.0
    row_main: Run | None = None
    # Written with comparisons rather than min() and max(): this runs for every run of every page.
    for run in sorted(runs, key=_middle):
        top, bottom, size = run.top, run.bottom, run.size
        height = bottom - top
        if height < 0.1:
            height = 0.1
        if row_main is not None:
            overlap = (bottom if bottom < row_bottom else row_bottom) - (top if top > row_top else row_top)
            row_height = row_bottom - row_top
            floor = MIN_HEIGHT_EM * row_size
            tall = height >= 2.5 * (row_height if row_height > floor else floor)
            joins = overlap >= 0.5 * (height if height < row_height else row_height) and not tall
            baseline, main_baseline = run.baseline, row_main.baseline
            if not joins and baseline is not None and main_baseline is not None:
                # Baselines further apart than SUPERSCRIPT_MAX_RISE_EM of the larger size are neither one nor raised.
                reach = size if size > row_size else row_size
                if abs(baseline - main_baseline) <= SUPERSCRIPT_MAX_RISE_EM * reach:
                    joins = _same_baseline(run, row_main) or (
                        (_raised_on(run, row_main) or _raised_on(row_main, run))
                        and run.x0 <= row_x1 + reach
                        and row_x0 - reach <= run.x1
                    )
            if joins:
                rows[-1].append(run)
                row_top = top if top < row_top else row_top
                row_bottom = bottom if bottom > row_bottom else row_bottom
                row_x0 = run.x0 if run.x0 < row_x0 else row_x0
                row_x1 = run.x1 if run.x1 > row_x1 else row_x1
                row_size = size if size > row_size else row_size
                if size > row_main.size or (size == row_main.size and len(run.text) > len(row_main.text)):
                    row_main = run
                continue
        rows.append([run])
        row_top, row_bottom, row_x0, row_x1, row_size, row_main = top, bottom, run.x0, run.x1, size, run
    return rows


def _middle(run: Run) -> float:
    return run.top + run.bottom


def _same_baseline(run: Run, main: Run) -> bool:
    if run.baseline is None or main.baseline is None:
        return False
    near = abs(run.baseline - main.baseline) <= SAME_BASELINE_EM * min(run.size, main.size)
    return near and _sits(run) and _sits(main)


def _raised_on(small: Run, line: Run) -> bool:
    """Whether `small` is set raised on the line of `line` (see SUPERSCRIPT_MAX_RISE_EM), by their baselines."""
    if small.baseline is None or line.baseline is None or small.size > SUPERSCRIPT_SIZE_SHARE * line.size:
        return False
    return 0.0 <= line.baseline - small.baseline <= SUPERSCRIPT_MAX_RISE_EM * line.size and _sits(small) and _sits(line)


def _sits(run: Run) -> bool:
    """Whether the run's glyphs stand on its baseline, as letters do, rather than hang from it (a big operator of
    TeX's math extension font has its origin at its top)."""
    assert run.baseline is not None
    return run.bottom <= run.baseline + BASELINE_DROP_EM * run.size


def _make_line(runs: list[Run], rtl: bool, *, vertical: bool = False) -> Line:
    if len(runs) == 1:
        run = runs[0]
        text = logical_line(_normal_spaces(run.text, monospaced(run.font)))
        bold = run.bold or not run.text.strip()
        return Line(text, _start(run), run.top, run.x1, run.bottom, run.size, bold, rtl, vertical, run.italic, run.font)
    ordered = list(reversed(runs)) if rtl else runs
    main = max(runs, key=lambda r: len(r.text))
    parts: list[str] = []
    previous: Run | None = None
    # A raised number opening the line marks the note it opens (`³The ideal size`): set off from the note's word.
    mark = _raised(ordered[0], main) and ordered[0].text.strip().isdigit()
    tracking = 0.0 if rtl else _letter_spacing(ordered, main)
    previous_raised = False
    for run, superscript in zip(ordered, _superscripts(ordered, main), strict=True):
        text = _superscript(run.text, parts[-1]) if superscript else run.text
        if previous is not None and parts:
            ink, gap = (previous.x0 - run.x1,) * 2 if rtl else run_gaps(previous, run)
            if previous_raised and not rtl and _CLOSING.match(text) and previous.advance and run.advance:
                ink = gap = run.advance[0] - previous.advance[1]  # a mark's punctuation follows it by the advances
            joined_tail, head = parts[-1], text
            set_off = mark and previous is ordered[0] and head[:1].isalpha() and not no_space_script(head[:1])
            if _cjk_boundary(joined_tail, head) and gap < MIXED_SCRIPT_GAP_EM * run.size:
                # PDFium puts a space into the text where it sees a gap; beside CJK a gap this narrow is layout.
                parts[-1], text = joined_tail.rstrip(), head.lstrip()
                joined_tail, head = parts[-1], text
            size = max(run.size, previous.size)
            spread = tracking if tracking and _letter_pair(previous, run) else 0.0
            if spread and gap <= ADVANCE_GAP_EM * size + spread and not previous.written_space:
                # PDFium's own space after a letter-spaced letter: the tracking, not a word space.
                parts[-1] = joined_tail = joined_tail.rstrip()
            elif not rtl and _overlapped_space(previous, run, joined_tail, head):
                parts[-1] = joined_tail = joined_tail.rstrip()
            apart = (ink > SPACE_GAP_EM * size + spread and gap > ADVANCE_GAP_EM * size + spread) or set_off
            over = (
                not rtl
                and not superscript
                and ink < -OVER_ANOTHER_EM * size
                and _spaced_alnum(joined_tail[-1:])
                and _spaced_alnum(head[:1])
            )
            if (
                (over or (apart and gap >= _unspaced_gap(joined_tail[-1:] or " ", head[:1] or " ") * run.size))
                and not joined_tail[-1:].isspace()
                and not head[:1].isspace()
            ):
                parts.append(" ")
        parts.append(text)
        previous, previous_raised = run, superscript
    return Line(
        text=logical_line(_normal_spaces("".join(parts), monospaced(main.font))),
        x0=min(_start(r) for r in runs),
        top=min(r.top for r in runs),
        x1=max(r.x1 for r in runs),
        bottom=max(r.bottom for r in runs),
        size=main.size,
        bold=all(r.bold for r in runs if r.text.strip()),
        rtl=rtl,
        vertical=vertical,
        italic=all(r.italic for r in runs if r.text.strip()),
        font=_majority_font(runs),
    )


def _overlapped_space(left: Run, right: Run, tail: str, head: str) -> bool:
    """Whether the space ending the left run's text (written, or PDFium's between objects) stands for no gap: the
    right run's first glyph stands where the left run's last letter's advance ends (LibreOffice writes a word whose
    runs differ in format, `unde` `r` `line`, each run placed anew over a space glyph). A word space moves the next
    glyph on by its width, about a quarter of an em. In one font only: a loose glyph box is its ink where the ink
    overhangs the advance (Times' `f`), and an italic run's first glyph may start left of its origin (`of fear`)."""
    if not (tail[-1:] == " " and _left_to_right_alnum(tail[-2:-1]) and _left_to_right_alnum(head[:1])):
        return False
    if left.advance is None or right.advance is None or (left.size, left.font) != (right.size, right.font):
        return False
    return abs(right.advance[0] - left.advance[1]) <= OVERLAPPED_SPACE_EM * right.size


def _spaced_alnum(char: str) -> bool:
    """A letter or digit of a script that sets words apart with spaces."""
    return char.isalnum() and not no_space_script(char)


def _left_to_right_alnum(char: str) -> bool:
    return char.isalnum() and unicodedata.bidirectional(char) in ("L", "EN")


def _normal_spaces(text: str, columns: bool) -> str:
    """The text's words a space apart; with `columns` (a monospaced line), runs of spaces between them as they are
    (a listing's aligned columns)."""
    if columns and "  " in text:
        return _OTHER_SPACE.sub(" ", text).strip()
    return " ".join(text.split())


def _start(run: Run) -> float:
    """Where a run's text starts: a monospaced run whose text opens with spaces (a code line's indentation written
    as space glyphs, which PDFium gives as one space) starts at its first glyph's origin, not at its box's left."""
    if run.advance is not None and run.text[:1].isspace() and monospaced(run.font):
        return run.advance[0]
    return run.x0


def _letter_spacing(runs: list[Run], main: Run) -> float:
    """The spacing a letter-spaced fragment adds between its letters (CSS `letter-spacing`, a title's tracking) when
    they stand one text object each: the median gap, by their advances, between consecutive single letters when it
    is wider than ADVANCE_GAP_EM and most such gaps are that wide (TeX's math sets its symbols apart unevenly);
    else 0. A word space between such letters is that much wider than the gaps inside a word. Raised letters are
    marks, not a spaced word (a reference's back-links, `^ a b c`)."""
    if sum(1 for run in runs if len(run.text) <= 2) <= LETTER_SPACED_PAIRS:
        return 0.0  # too few glyphs one object each (with PDFium's space) to tell
    gaps = [
        run_gaps(left, right)[1]
        for left, right in itertools.pairwise(runs)
        if _letter_pair(left, right) and not _raised(left, main) and not _raised(right, main)
    ]
    if len(gaps) < LETTER_SPACED_PAIRS:
        return 0.0
    tracking = statistics.median(gaps)
    even = sum(1 for gap in gaps if abs(gap - tracking) <= EVEN_TRACKING_EM * runs[0].size)
    return tracking if tracking > ADVANCE_GAP_EM * runs[0].size and even >= EVEN_SHARE * len(gaps) else 0.0


def _letter_pair(left: Run, right: Run) -> bool:
    """A letter and a letter or a punctuation mark, one text object each, side by side in one font and size."""
    first, second = left.text.rstrip(), right.text.rstrip()
    return (
        len(first) == 1
        and len(second) == 1
        and first.isalpha()
        and (second.isalpha() or unicodedata.category(second).startswith("P"))
        and left.size == right.size
        and left.font == right.font
    )


def run_gaps(left: Run, right: Run) -> tuple[float, float]:
    """The space between two runs on a left-to-right line, between their ink and between their glyph boxes: from
    where the left run's last advance ends to the right run's first origin (when smaller than the ink gap; the ink
    gap when the advances are not known). Glyphs placed one after another (a glyph per text object, as Chromium
    writes) touch by their advances while their ink stands apart by the side bearings, a fifth of an em around a
    narrow glyph of a monospace font. A smaller run (a reference mark) keeps the ink rule: it is set off from the
    number it follows (`14. ²`, not `14.2`); so does a dot leader, whose last dot's advance runs up to the page
    number it leads to."""
    ink = right.x0 - left.x1
    if left.advance is None or right.advance is None or left.size != right.size or _leader(left.text):
        return ink, ink
    return ink, min(ink, right.advance[0] - left.advance[1])


def _leader(text: str) -> bool:
    """Whether the text ends with two dots or more (a dot leader)."""
    tail = text.rstrip()[-2:]
    return len(tail) == 2 and tail[0] in _LEADER_DOTS and tail[1] in _LEADER_DOTS


def _superscripts(runs: list[Run], main: Run) -> list[bool]:
    """Which runs to write in superscript: raised, made of characters with superscript forms, not the fragment's
    first run nor a fraction's numerator (before its slash); a sign or bracket alone only beside a raised digit or
    letter (`10⁻³`, not the bracket before raised CJK text)."""
    raised = [index > 0 and _raised(run, main) for index, run in enumerate(runs)]
    plain = _plain_marks(runs, raised) if any(raised) else set()
    candidates = [
        raised[index]
        and index not in plain
        and _SUPERSCRIPT_TEXT.fullmatch(run.text) is not None
        and not any(after.text.startswith(_FRACTION_SLASHES) for after in runs[index + 1 : index + 2])
        for index, run in enumerate(runs)
    ]
    cores = [candidates[i] and _SUPERSCRIPT_CORE.search(run.text) is not None for i, run in enumerate(runs)]
    beside = [False, *cores, False]
    return [cores[i] or (candidates[i] and (beside[i] or beside[i + 2])) for i in range(len(runs))]


def _plain_marks(runs: list[Run], raised: list[bool]) -> set[int]:
    """The runs of raised stretches that stay as they are written: a stretch holding a bracket (a browser's
    `<sup>[12]</sup>`, brackets having no superscript form), a word (`2nd`, `[note 1]`) or CJK letters (`(訳注1)`),
    so that a mark drawn one glyph per text object is not half superscript (`[¹⁰]`, `2ⁿd`, `(訳注¹⁾`)."""
    plain: set[int] = set()
    for is_raised, group in itertools.groupby(range(len(runs)), key=lambda index: raised[index]):
        indices = list(group)
        text = "".join(runs[index].text for index in indices)
        if is_raised and (_PLAIN_RAISED.search(text) or has_cjk_letter(text)):
            plain.update(indices)
    return plain


def _raised(run: Run, main: Run) -> bool:
    """Smaller, and its ink's bottom or its baseline above the main run's by SUPERSCRIPT_RISE_EM (a raised bracket
    reaches below its baseline)."""
    if run.size > SUPERSCRIPT_SIZE_SHARE * main.size:
        return False
    rise = SUPERSCRIPT_RISE_EM * main.size
    if run.bottom <= main.bottom - rise:
        return True
    return run.baseline is not None and main.baseline is not None and run.baseline <= main.baseline - rise


def _superscript(text: str, tail: str) -> str:
    """The raised text in superscript characters, set off from a word it marks (see the module docstring)."""
    raised = text.translate(_SUPERSCRIPTS)
    return " " + raised.lstrip() if _marks_word(tail) and not text[:1].isspace() else raised


def _marks_word(tail: str) -> bool:
    """Whether a superscript right after `tail` marks its last word (a reference) rather than raises a power: after
    three letters or more, or two starting with a capital (`Li`); not after a digit, one letter or two lower-case
    ones (`10⁻³`, `R²`, `km²`), nor after CJK or Hangul letters, which the analyzer cuts from digits anyway."""
    word = _LAST_WORD.search(tail)
    if word is None or has_cjk_letter(word.group()[-1]):
        return False
    letters = word.group()
    return len(letters) >= 3 or (len(letters) == 2 and letters[0].isupper())


def _cjk_boundary(tail: str, head: str) -> bool:
    left, right = tail.rstrip()[-1:] or " ", head.lstrip()[:1] or " "
    return no_space_script(left) or no_space_script(right)


def _unspaced_gap(left: str, right: str) -> float:
    """The widest gap, in font sizes, that still joins two runs without a space, by the scripts on both sides:
    CJK text has no spaces between words, and Japanese layout sets a digit or Latin run off from the kana or kanji
    beside it by a quarter em without a space character (`M12ボルト`, `０℃以下`)."""
    cjk_left, cjk_right = no_space_script(left), no_space_script(right)
    if cjk_left and cjk_right:
        return CJK_GAP_EM
    if cjk_left or cjk_right:
        return MIXED_SCRIPT_GAP_EM
    return 0.0


def _majority_font(runs: list[Run]) -> str:
    weights: dict[str, int] = {}
    for run in runs:
        weights[run.font] = weights.get(run.font, 0) + len(run.text)
    font, weight = max(weights.items(), key=lambda item: item[1])
    return font if weight >= MAJORITY_FONT_SHARE * sum(weights.values()) else ""
