"""Roman numerals, written as list labels write them (the formats that number their own lists) and read back
(a PDF's page numbers)."""

from __future__ import annotations

import itertools

_ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip


def roman(value: int) -> str:
    """`value` in upper-case Roman numerals; outside 1-3999, which they cannot write, in digits."""
    if not 0 < value < 4000:
        return str(value)
    out = []
    for amount, numeral in _ROMAN:
        count, value = divmod(value, amount)
        out.append(numeral * count)
    return "".join(out)


_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_value(numeral: str) -> int:
    """The value of a Roman numeral of the letters ivxlcdm (either case); a smaller letter before a larger one is
    subtracted (`xiv` is 14)."""
    values = [_VALUES[letter] for letter in numeral.lower()]
    return sum(-value if value < following else value for value, following in itertools.pairwise([*values, 0]))
