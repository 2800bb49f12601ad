"""Cell values as display text plus a coarse kind, for workbooks (typed values) and delimited text (strings)."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Final, NamedTuple

from docshelf.parsers.sheets.number_format import general_number, render_number

TEXT: Final = "text"
NUMBER: Final = "number"
DATE: Final = "date"
BOOL: Final = "bool"


class GridCell(NamedTuple):
    """One non-empty cell: the text a reader sees and whether it is text or a value (number, date, bool)."""

    text: str
    kind: str


_NUMERIC_TEXT = re.compile(
    r"^[-+−]?\(?[-+−]?[$€£¥₹]?\s?(\d{1,3}([,.\s']\d{3})+|\d+)([.,]\d+)?([eE][-+]?\d+)?\s?(%|‰|[$€£¥₹])?\)?$"
)
_DATE_TEXT = re.compile(
    r"^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})"
    r"([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$"
)
_BOOL_TEXT = frozenset({"true", "false"})


def clean_text(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip()


def format_number(value: float, number_format: str = "General") -> str:
    """The text Excel shows for a number: its format rendered (see `number_format`), or the General form for
    General and for formats that module cannot render."""
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if number_format.lower() != "general":
        rendered = render_number(value, number_format)
        if rendered is not None:
            return rendered
    return general_number(value)


def format_datetime(value: dt.datetime | dt.date | dt.time | dt.timedelta) -> str:
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.replace(microsecond=0).isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.replace(microsecond=0).isoformat()
    return str(value)


def typed_cell(value: object, number_format: str = "General") -> GridCell | None:
    """A workbook value (openpyxl/xlrd Python types) as a GridCell; None for empty cells."""
    if value is None:
        return None
    if isinstance(value, bool):
        return GridCell("TRUE" if value else "FALSE", BOOL)
    if isinstance(value, int | float):
        return GridCell(format_number(value, number_format), NUMBER)
    if isinstance(value, dt.datetime | dt.date | dt.time | dt.timedelta):
        return GridCell(format_datetime(value), DATE)
    text = clean_text(str(value))
    return GridCell(text, TEXT) if text else None


def text_cell(raw: str) -> GridCell | None:
    """A string from delimited text, with its kind guessed from its shape."""
    text = clean_text(raw)
    if not text:
        return None
    return GridCell(text, text_kind(text))


def text_kind(text: str) -> str:
    if len(text) > 40:
        return TEXT
    if _NUMERIC_TEXT.match(text):
        return NUMBER
    if _DATE_TEXT.match(text):
        return DATE
    if text.lower() in _BOOL_TEXT:
        return BOOL
    return TEXT


def is_year(cell: GridCell) -> bool:
    return cell.kind == NUMBER and len(cell.text) == 4 and cell.text.isdigit() and 1900 <= int(cell.text) <= 2100
