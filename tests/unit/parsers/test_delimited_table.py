"""The filled-rectangle fast path of delimited files gives exactly what the sheet layout gives."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.sheets import delimited
from docshelf.parsers.sheets.delimited_table import rectangular_table

VALUES = ["name", "City", "Berlin", "x y z", "12", "3.5", "-7", "2026-05-04", "true", "", "  ", "Total", "2019"]


def _csv(rows: list[list[str]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().encode()


def _parsed(data: bytes, limits: ParseLimits, *, fast: bool) -> ParsedContent:
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(delimited, "rectangular_table", lambda records, budget: None)
        return delimited.parse(data, filename="t.csv", limits=limits)


@settings(max_examples=150, deadline=None)
@given(
    width=st.integers(min_value=1, max_value=5),
    rows=st.lists(st.lists(st.sampled_from(VALUES), min_size=1, max_size=5), min_size=1, max_size=12),
    cell_limit=st.sampled_from([7, 20, 1000]),
    rectangular=st.booleans(),
)
def test_the_fast_path_equals_the_sheet_layout(
    width: int, rows: list[list[str]], cell_limit: int, rectangular: bool
) -> None:
    if rectangular:
        rows = [[value if value.strip() else "v" for value in (row * width)[:width]] for row in rows]
    data = _csv(rows)
    if not data.strip():
        return
    limits = ParseLimits(max_sheet_cells=cell_limit)
    fast, layout = (_parsed(data, limits, fast=flag) for flag in (True, False))
    assert fast.blocks == layout.blocks
    assert (fast.truncation, fast.warnings) == (layout.truncation, layout.warnings)


def test_a_filled_rectangle_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []

    def spy(records, budget):  # type: ignore[no-untyped-def]
        found = rectangular_table(records, budget)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(delimited, "rectangular_table", spy)
    content = delimited.parse(b"part,price\nTX-100,189\nTX-200,329\n", filename="p.csv", limits=ParseLimits())
    assert taken == [True]
    (table,) = content.blocks
    assert table.kind == "table" and table.header_rows == 1 and (table.n_rows, table.n_cols) == (3, 2)
    delimited.parse(b"title\n\npart,price\nTX-100,189\n", filename="p.csv", limits=ParseLimits())
    assert taken == [True, False]
