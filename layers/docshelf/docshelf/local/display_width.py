"""How wide a text is on a terminal: East Asian wide and full-width characters take two columns, combining marks and
format characters none (Unicode Standard Annex #11). Columns padded by characters misalign Japanese file names."""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """The columns `text` takes in a monospaced terminal."""
    if text.isascii():
        return len(text)
    return sum(_char_width(char) for char in text)


def _char_width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def pad(text: str, width: int) -> str:
    """`text` followed by spaces up to `width` columns (as `f"{text:<{width}}"` does for one-column characters)."""
    return text + " " * max(0, width - display_width(text))
