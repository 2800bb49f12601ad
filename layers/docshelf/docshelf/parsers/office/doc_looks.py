"""How a Word 97-2003 file's paragraphs are set, for headings typed by formatting (bold or larger lines in the
Normal style): each character's bold and size, from the character runs' properties over the paragraph style's.

Word keeps character properties in runs: the PlcBteChpx (table stream) lists the 512-byte CHPX pages (FKPs,
WordDocument stream), each page the byte ranges (file positions) of its runs and their grpprl. A run's
sprmCFBold is 0 or 1, or 0x80 / 0x81 for "as the paragraph style" and its opposite; sprmCHps its size in
half-points. A run without properties is set as its paragraph style sets it.
"""

from __future__ import annotations

import bisect
import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from docshelf.parsers.formatted_headings import Look
from docshelf.parsers.office.doc_lists import DEFAULT_HALF_POINTS, SPRM_BOLD, SPRM_HALF_POINTS
from docshelf.parsers.office.doc_props import ParagraphStyles, Piece, PieceIndex, property_pages, sprms

FC_PLCF_BTE_CHPX = 154 + 12 * 8  # fcPlcfBteChpx, lcbPlcfBteChpx in FibRgFcLcb97
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Run:
    start: int  # byte positions in the WordDocument stream
    end: int
    bold: int | None  # sprmCFBold's operand, or None
    half_points: int | None


class TextLooks:
    """The looks of spans of a Word 97 file's text (by character position), or None for a span without text."""

    def __init__(self, runs: list[_Run], pieces: list[Piece], styles: ParagraphStyles) -> None:
        self._runs = sorted(runs, key=lambda run: run.start)
        self._starts = [run.start for run in self._runs]
        self._pieces = PieceIndex(pieces)
        self._styles = styles

    @classmethod
    def read(cls, word_document: bytes, table: bytes, pieces: list[Piece], styles: ParagraphStyles) -> TextLooks | None:
        runs = _chpx_runs(word_document, table)
        return cls(runs, pieces, styles) if runs is not None else None

    def look(self, start: int, end: int, style: int) -> Look | None:
        """The look of the characters from position `start` to `end` of a paragraph in style `style`."""
        style_bold, style_half_points = self._styles.looks.get(style, (False, DEFAULT_HALF_POINTS))
        counts: Counter[tuple[bool, float]] = Counter()
        for piece, first, last in self._pieces.spans(start, end):
            for run_first, run_last, run in self._runs_over(piece.fc + (first - piece.cp) * piece.width,
                                                            piece.fc + (last - piece.cp) * piece.width):  # fmt: skip
                text = piece.text[(run_first - piece.fc) // piece.width : (run_last - piece.fc) // piece.width]
                visible = len(text) - sum(map(text.count, " \t\r\x07\x0b\x0c\xa0"))
                if visible <= 0:
                    continue
                bold = style_bold if run is None or run.bold in (None, 0x80) else (
                    not style_bold if run.bold == 0x81 else bool(run.bold & 1)
                )  # fmt: skip
                half_points = style_half_points if run is None or run.half_points is None else run.half_points
                counts[bold, half_points / 2] += visible
        return Look.of(counts)

    def _runs_over(self, first: int, last: int) -> list[tuple[int, int, _Run | None]]:
        """The parts of the byte range [first, last) that runs cover, each with its run (None: no run's)."""
        found: list[tuple[int, int, _Run | None]] = []
        at = max(0, bisect.bisect_right(self._starts, first) - 1)
        position = first
        while position < last:
            run = self._runs[at] if at < len(self._runs) else None
            if run is None or run.start >= last:
                found.append((position, last, None))
                break
            if run.end <= position:
                at += 1
                continue
            if run.start > position:
                found.append((position, run.start, None))
                position = run.start
            end = min(run.end, last)
            found.append((position, end, run))
            position = end
            at += 1
        return found


def _chpx_runs(word_document: bytes, table: bytes) -> list[_Run] | None:
    """Every character run of the CHPX pages with its bold and size, or None when the pages cannot be read."""
    runs = character_runs(word_document, table, _said)
    return None if runs is None else [_Run(start, end, *said) for start, end, said in runs]


def character_runs(
    word_document: bytes, table: bytes, read: Callable[[bytes], T | None]
) -> list[tuple[int, int, T]] | None:
    """(first byte, end byte, what `read` makes of its grpprl) of every character run for which it makes something,
    or None when the CHPX pages cannot be read. A page repeats the same few grpprls: each is read once."""
    pages = property_pages(word_document, table, FC_PLCF_BTE_CHPX)
    if pages is None:
        return None
    runs: list[tuple[int, int, T]] = []
    parsed: dict[bytes, T | None] = {}
    for at in pages:
        if at + 512 > len(word_document):
            return None
        crun = word_document[at + 511]
        if 4 * (crun + 1) + crun > 511:
            return None
        bounds = struct.unpack_from(f"<{crun + 1}I", word_document, at)
        offsets = word_document[at + 4 * (crun + 1) : at + 4 * (crun + 1) + crun]
        for index, offset in enumerate(offsets):
            if not offset:
                continue
            chpx = at + 2 * offset
            grpprl = word_document[chpx + 1 : min(chpx + 1 + word_document[chpx], at + 511)]
            said = parsed[grpprl] if grpprl in parsed else parsed.setdefault(grpprl, read(grpprl))
            if said is not None:
                runs.append((bounds[index], bounds[index + 1], said))
    return runs


def _said(grpprl: bytes) -> tuple[int | None, int | None] | None:
    found = sprms(grpprl)
    bold = found[SPRM_BOLD][0] if found.get(SPRM_BOLD) else None
    half_points = (
        int.from_bytes(found[SPRM_HALF_POINTS], "little") if len(found.get(SPRM_HALF_POINTS, b"")) == 2 else None
    )
    return None if bold is None and not half_points else (bold, half_points or None)
