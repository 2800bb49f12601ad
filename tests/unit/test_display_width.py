"""Terminal columns (display_width.py): wide characters take two, combining marks none."""

from __future__ import annotations

import pytest

from docshelf.local.display_width import display_width, pad


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("manual.pdf", 10),
        ("就業規則.docx", 13),  # four wide kanji
        ("ＴＸ－１００", 12),  # full-width forms
        ("ｿｹｯﾄ.csv", 8),  # half-width katakana are narrow
        ("Cafe\u0301", 4),  # a combining accent takes no column
        ("zero\u200bwidth", 9),
        ("한국어", 6),
    ],
)
def test_display_width_counts_terminal_columns(text: str, width: int) -> None:
    assert display_width(text) == width


def test_pad_fills_to_columns_not_characters() -> None:
    assert pad("就業規則", 10) == "就業規則  "
    assert pad("abc", 5) == "abc  "
    assert pad("就業規則.docx", 4) == "就業規則.docx"
