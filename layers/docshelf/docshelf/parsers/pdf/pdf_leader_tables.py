"""Tables of entries and page numbers joined by dot leaders (a table of contents, a list of figures, an index).

Three or more consecutive lines of the form `Title . . . . . 12` make a two-column table: the entry (its leader
dots dropped) and the page label. Lines of one entry wrapped before its leader join the entry that follows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docshelf.model import Table, TableCell
from docshelf.parsers.pdf.pdf_lines import build_lines, text_rows
from docshelf.parsers.pdf.pdf_paragraphs import join_lines
from docshelf.parsers.pdf.pdf_tables import PlacedTable
from docshelf.parsers.pdf.pdf_text import Run

MIN_ENTRIES = 3
CELL_GAP_EM = 1.0
MAX_PITCH_EM = 3.0
_PAGE_LABEL = r"(?:[0-9]{1,5}|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})"
LEADER = r"(?:[.·…]\s?){3,}"  # dots, middle dots or ellipses leading an entry to its page number
_LEADER = re.compile(rf"^(?P<entry>.*?\S)\s*{LEADER}\s*(?P<page>{_PAGE_LABEL})$")
_TRAILING_LEADER = re.compile(rf"{LEADER}$")
_PAGE = re.compile(rf"^{_PAGE_LABEL}$")
_DOTS = re.compile(r"(?:[.·…]\s?){5}")  # a leader is longer than an ellipsis


def find_leader_tables(runs: list[Run], page: int) -> tuple[list[PlacedTable], list[Run]]:
    """Tables of dot-leader entries on the page, and the runs left outside them. Entries are looked for in each
    stretch of a line between gaps wider than a font size, so that the columns of a two-column index are apart;
    the entries of one table end at the same right edge (their page numbers line up)."""
    dotted = [run for run in runs if _DOTS.search(run.text)]
    if len(dotted) < MIN_ENTRIES:
        return [], runs
    entries: list[_Entry] = []
    for row in text_rows([run for run in runs if not run.vertical]):
        if not any(_DOTS.search(run.text) for run in row):
            continue
        cells = _cells(row)
        for index, cell in enumerate(cells):
            match = _LEADER.match(_text(cell))
            if match is not None and index > 0 and not any(char.isalnum() for char in match.group("entry")):
                cell = cells[index - 1] + cell  # the entry set apart before its leader
                match = _LEADER.match(_text(cell))
            if match is not None:
                entries.append(_Entry(cell, match))
    tables: list[PlacedTable] = []
    used: set[int] = set()
    for column in _by_right_edge(entries):
        start = 0
        while start < len(column):
            end = start + 1
            while end < len(column) and _close(column[end - 1], column[end]):
                end += 1
            if end - start >= MIN_ENTRIES:
                tables.append(_table(column[start:end], page))
                used.update(id(run) for entry in column[start:end] for run in entry.runs)
            start = end
    if not tables:
        return [], runs
    return tables, [run for run in runs if id(run) not in used]


@dataclass(slots=True)
class _Entry:
    runs: list[Run]
    match: re.Match[str]

    @property
    def top(self) -> float:
        return min(run.top for run in self.runs)

    @property
    def x1(self) -> float:
        return max(run.x1 for run in self.runs)

    @property
    def size(self) -> float:
        return max(run.size for run in self.runs)


def _cells(row: list[Run]) -> list[list[Run]]:
    """The row's stretches between gaps wider than a font size; a stretch that ends in leader dots takes the page
    label set apart after it."""
    cells: list[list[Run]] = []
    right = 0.0
    for run in sorted(row, key=lambda run: run.x0):
        close = cells and run.x0 - right <= CELL_GAP_EM * max(run.size, 1.0)
        if cells and (close or (_TRAILING_LEADER.search(_text(cells[-1])) and _PAGE.match(run.text.strip()))):
            cells[-1].append(run)
        else:
            cells.append([run])
        right = max(right, run.x1) if len(cells[-1]) > 1 else run.x1
    return cells


def _text(runs: list[Run]) -> str:
    return join_lines([line.text for line in build_lines(runs)])


def _by_right_edge(entries: list[_Entry]) -> list[list[_Entry]]:
    """Entries grouped by their right edge (within a font size), each group top-down."""
    groups: list[list[_Entry]] = []
    for entry in sorted(entries, key=lambda entry: entry.x1):
        if groups and entry.x1 - groups[-1][-1].x1 <= entry.size:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return [sorted(group, key=lambda entry: entry.top) for group in groups]


def _close(previous: _Entry, entry: _Entry) -> bool:
    return 0 < entry.top - previous.top <= MAX_PITCH_EM * entry.size


def _table(entries: list[_Entry], page: int) -> PlacedTable:
    cells: list[TableCell] = []
    for index, entry in enumerate(entries):
        cells.append(TableCell(row=index, col=0, text=entry.match.group("entry")))
        cells.append(TableCell(row=index, col=1, text=entry.match.group("page")))
    runs = [run for entry in entries for run in entry.runs]
    return PlacedTable(
        Table(cells=tuple(cells), n_rows=len(entries), n_cols=2, page=page, header_rows=0),
        min(run.x0 for run in runs),
        min(run.top for run in runs),
        max(run.x1 for run in runs),
        max(run.bottom for run in runs),
    )
