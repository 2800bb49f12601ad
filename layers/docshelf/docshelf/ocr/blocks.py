"""OCR'd text as typed blocks: paragraphs in the engine's reading order, lines joined as the script is written,
headings where size says so, and tables where ruling lines draw a grid."""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from docshelf.model import Heading, Paragraph, Table, TableCell
from docshelf.ocr.cjk_text import tidy_line
from docshelf.ocr.engine import OcrEngine, ScriptRoutedEngine
from docshelf.ocr.first_pass_sample import sampled_bands
from docshelf.ocr.grid import Grid, find_grids
from docshelf.ocr.large_lines import reread_large_lines
from docshelf.ocr.model import OcrBlock, OcrLine, OcrPage, OcrWord, union
from docshelf.ocr.script import choose_languages, first_pass_language, has_letters, letter_count
from docshelf.ocr.settings import OcrSettings
from docshelf.scripts import no_space_script

# A paragraph whose confidence is below this is kept, with a warning that its text may be wrong.
LOW_CONFIDENCE = 0.6
# Tesseract keeps lines separated by a blank line in one paragraph at times: a gap over this many line heights
# between two lines starts a new paragraph.
PARAGRAPH_GAP_LINES = 1.0
# The language-finding first pass reads the page at 1/3 of its resolution (100 dpi for a 300 dpi page): measured on
# the tests' pages, it told English, Chinese and Japanese apart as at 1/2, clean and degraded, in 80% of the time.
FIRST_PASS_REDUCTION = 3
# Letters the first pass must find in the sampled bands to go by them alone (else it reads the whole page).
SAMPLE_LETTERS = 120
# Line heights (over the page's median) from which a lone short line is a heading, and a level-1 heading.
HEADING_HEIGHT = 1.3
TITLE_HEIGHT = 1.8
HEADING_MAX_CHARS = 120
_HYPHENATED = re.compile(r"[^\W\d_]-$")
_TRAILING_RUN = re.compile("[0-9A-Za-z０-９Ａ-Ｚａ-ｚ.,]+$")

if TYPE_CHECKING:
    from PIL.Image import Image


def preload(engine: OcrEngine, settings: OcrSettings) -> None:
    """Load the models every page may use: the first pass's and each language alone in the engine that reads it, or
    all together when no first pass chooses."""
    reader = first_pass_language(settings.languages)
    if reader is None:
        engine.load(settings.languages)
        return
    _scout(engine).load((reader,))
    for language in settings.languages:
        engine.load((language,))


def _scout(engine: OcrEngine) -> OcrEngine:
    """The engine the first pass reads with."""
    return engine.first_pass if isinstance(engine, ScriptRoutedEngine) else engine


def recognise_page(
    engine: OcrEngine, image: Image, settings: OcrSettings, page_number: int, *, dpi: int | None
) -> tuple[list[OcrBlock], str | None]:
    """One page image's paragraphs and, when some are doubtful, a warning saying so. With languages that scripts
    tell apart, a first pass at a third of the resolution finds the one the page is written in (ocr/script.py)."""
    languages = settings.languages
    reader = first_pass_language(languages)
    if reader is not None:
        small = image.reduce(FIRST_PASS_REDUCTION)
        found = _first_pass_text(_scout(engine), small, reader, dpi // FIRST_PASS_REDUCTION if dpi else None)
        languages = choose_languages(found, languages)
        if not has_letters(found):
            # No script to go by (a photo, a chart, text too small at a third of the resolution): the first pass's
            # engine reads it whole, as cheaply as before, not PP-OCR (5x its CPU on a manual's 14 pictures).
            engine = _scout(engine)
    recognised = reread_large_lines(engine, image, engine.recognise(image, languages, dpi=dpi), languages, dpi=dpi)
    blocks = ocr_blocks(recognised, find_grids(image), page_number)
    return blocks, low_confidence_warning(blocks, page_number)


def _first_pass_text(engine: OcrEngine, small: Image, reader: str, dpi: int | None) -> str:
    """What the first pass reads of three bands of the page, or of all of it when the bands hold few letters."""
    bands = sampled_bands(small)
    if bands is not None:
        found = "".join(word.text for word in engine.recognise(bands, (reader,), dpi=dpi).words())
        if letter_count(found) >= SAMPLE_LETTERS:
            return found
    return "".join(word.text for word in engine.recognise(small, (reader,), dpi=dpi).words())


def ocr_blocks(page: OcrPage, grids: list[Grid], page_number: int) -> list[OcrBlock]:
    """The page's paragraphs and headings, and a table for each ruled grid in place of the words inside it (where
    the engine read the grid's first word)."""
    body = _body_height(page)
    cells: list[dict[tuple[int, int], list[OcrWord]]] = [{} for _ in grids]
    result: list[OcrBlock | int] = []  # an int: where grid number n's table goes
    for paragraph in page.paragraphs:
        kept: list[OcrLine] = []
        for line in paragraph.lines:
            outside: list[OcrWord] = []
            for word in line.words:
                found = _grid_cell(word, grids)
                if found is None:
                    outside.append(word)
                    continue
                number, cell = found
                if not cells[number]:
                    result.append(number)
                cells[number].setdefault(cell, []).append(word)
            if outside:
                kept.append(OcrLine(tuple(outside), line.box))
        result.extend(_paragraph_blocks(_tidy(kept), body, page_number))
    return [_table(grids[item], cells[item], page_number) if isinstance(item, int) else item for item in result]


def ocr_paragraphs(page: OcrPage, page_number: int) -> list[Heading | Paragraph]:
    """The page's paragraphs, each marked `ocr` with its character-weighted mean word confidence. A paragraph of one
    short line set clearly larger than the page's text is a heading."""
    body = _body_height(page)
    return [
        block for paragraph in page.paragraphs for block in _paragraph_blocks(_tidy(paragraph.lines), body, page_number)
    ]


def _tidy(lines: Sequence[OcrLine]) -> list[OcrLine]:
    """The lines as ocr/cjk_text.py puts them right, lines of noise alone left out."""
    return [tidied for tidied in map(tidy_line, lines) if tidied is not None]


def _body_height(page: OcrPage) -> float:
    heights = [line.box[3] - line.box[1] for paragraph in page.paragraphs for line in paragraph.lines]
    return statistics.median(heights) if heights else 0.0


def _paragraph_blocks(lines: list[OcrLine], body: float, page_number: int) -> list[Heading | Paragraph]:
    result: list[Heading | Paragraph] = []
    for group in _split_at_gaps(lines) if lines else []:
        text = _join_lines([_line_text(line.words) for line in group])
        if not text:
            continue
        confidence = _confidence([word for line in group for word in line.words])
        level = _heading_level(group, text, body)
        if level is None:
            result.append(Paragraph(text=text, page=page_number, ocr=True, confidence=confidence))
        else:
            result.append(Heading(text=text, level=level, page=page_number, ocr=True, confidence=confidence))
    return result


def _grid_cell(word: OcrWord, grids: list[Grid]) -> tuple[int, tuple[int, int]] | None:
    left, top, right, bottom = word.box
    for number, grid in enumerate(grids):
        cell = grid.cell((left + right) / 2, (top + bottom) / 2)
        if cell is not None:
            return number, cell
    return None


def _table(grid: Grid, cells: dict[tuple[int, int], list[OcrWord]], page_number: int) -> Table:
    n_rows, n_cols = len(grid.rows) - 1, len(grid.cols) - 1
    placed = tuple(
        TableCell(row, col, _cell_text(cells.get((row, col), []))) for row in range(n_rows) for col in range(n_cols)
    )
    words = [word for found in cells.values() for word in found]
    return Table(cells=placed, n_rows=n_rows, n_cols=n_cols, page=page_number, ocr=True, confidence=_confidence(words))


def _cell_text(words: list[OcrWord]) -> str:
    if not words:
        return ""
    tidied = tidy_line(OcrLine(tuple(words), union([word.box for word in words])))
    return _line_text(tidied.words) if tidied is not None else ""


def _heading_level(lines: list[OcrLine], text: str, body: float) -> int | None:
    """1 or 2 for a lone short line at least HEADING_HEIGHT (1 from TITLE_HEIGHT) times the page's median line
    height; a body line, with or without ascenders and descenders, is never taller than the median by that much."""
    if len(lines) != 1 or len(text) > HEADING_MAX_CHARS or body <= 0 or not any(char.isalpha() for char in text):
        return None
    ratio = (lines[0].box[3] - lines[0].box[1]) / body
    if ratio >= TITLE_HEIGHT:
        return 1
    return 2 if ratio >= HEADING_HEIGHT else None


def low_confidence_warning(blocks: Sequence[OcrBlock], page_number: int) -> str | None:
    low = [block for block in blocks if block.confidence is not None and block.confidence < LOW_CONFIDENCE]
    if not low:
        return None
    worst = min(block.confidence or 0.0 for block in low)
    return (
        f"page {page_number}: OCR confidence low in {len(low)} of {len(blocks)} paragraphs "
        f"(lowest {worst:.2f}); their text may be wrong"
    )


def _split_at_gaps(lines: list[OcrLine]) -> list[list[OcrLine]]:
    if len(lines) < 2:
        return [lines]
    height = statistics.median(line.box[3] - line.box[1] for line in lines)
    groups: list[list[OcrLine]] = [[lines[0]]]
    for previous, line in itertools.pairwise(lines):
        if line.box[1] - previous.box[3] > PARAGRAPH_GAP_LINES * height:
            groups.append([])
        groups[-1].append(line)
    return groups


def _line_text(words: tuple[OcrWord, ...]) -> str:
    """Words joined by spaces, except between two characters of a script written without them (Tesseract splits
    Chinese and Japanese into words it separates by spaces)."""
    text = ""
    for word in words:
        if text and not (no_space_script(text[-1]) and no_space_script(word.text[0])):
            text += " "
        text += word.text
    return text


def _join_lines(lines: list[str]) -> str:
    text = ""
    for line in lines:
        if not line:
            continue
        if not text:
            text = line
        elif _HYPHENATED.search(text) and line[0].islower():
            text = text[:-1] + line
        elif no_space_script(text[-1]) or no_space_script(line[0]) or _run_in_cjk(text):
            text += line
        else:
            text += " " + line
    return text


def _confidence(words: list[OcrWord]) -> float:
    weight = sum(len(word.text) for word in words)
    return round(sum(word.confidence * len(word.text) for word in words) / weight, 3) if weight else 0.0


def _run_in_cjk(text: str) -> bool:
    """Whether `text` ends in a number or a Latin word set inside Chinese or Japanese text (`点検は20`): CJK lines
    break anywhere, so the next line continues it without a space."""
    run = _TRAILING_RUN.search(text)
    return run is not None and run.start() > 0 and no_space_script(text[run.start() - 1])
