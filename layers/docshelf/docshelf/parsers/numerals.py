"""Numbers as list labels write them, shared by the formats that number their own lists."""

from __future__ import annotations

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
