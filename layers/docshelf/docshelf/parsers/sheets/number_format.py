"""Excel number formats rendered as Excel displays them: the text a citation of a cell must show.

A format has up to four `;`-separated sections (positive, negative, zero, text). A section is literal text
around one run of digit placeholders (`0 # ? , .`, optionally `E+00`): quoted text, `\\x` escapes, currency
symbols, `%` (which also scales by 100); `_x` padding shows as a space, `*x` fill and colour codes such as
`[Red]` show nothing. Decimals round half away from zero on the shortest decimal form of the value, as Excel
does (2.675 with `0.00` is 2.68, not Python's 2.67). Anything else (dates, fractions, conditions such as
`[>100]`, literals between digits) is not rendered: `render_number` returns None and the caller falls back.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from typing import NamedTuple

_TOKEN = re.compile(r'"[^"]*"|\\.|_.|\*.|\[[^\]]*\]|E[+-]|General|.', re.IGNORECASE | re.DOTALL)
_COLOUR = re.compile(r"\[(black|blue|cyan|green|magenta|red|white|yellow|color\s*\d+)\]", re.IGNORECASE)
_CURRENCY = re.compile(r"\[\$([^-\]]*)(-[0-9A-Fa-f]+)?\]")
_PLACEHOLDERS = frozenset("0#?.,")
_EXPONENT = re.compile(r"(E[+-])", re.IGNORECASE)
_WIDE = Context(prec=400)  # room for every digit of a float up to 1e308 and its decimals


class _Section(NamedTuple):
    """One format section split into the literal text around its digit placeholders."""

    prefix: str
    digits: str  # the placeholders, e.g. "#,##0.00" or "0.00E+00"; "General" for a General section
    suffix: str
    percent: int


def render_number(value: float, number_format: str) -> str | None:
    """The text Excel shows for `value` in `number_format`, or None for a format this module cannot render.

    With one section a negative value gets a leading minus; a negative (second) or zero (third) section
    shows the magnitude as that section writes it, e.g. `(1,234)`.
    """
    sections = _sections(number_format)
    if len(sections) > 4:
        return None
    if value < 0 and len(sections) >= 2:
        tokens, magnitude, sign = sections[1], -value, ""
    elif value == 0 and len(sections) >= 3:
        tokens, magnitude, sign = sections[2], value, ""
    else:
        tokens, magnitude, sign = sections[0], abs(value), "-" if value < 0 else ""
    section = _section(tokens)
    if section is None:
        return None
    number = _digits(Decimal(repr(magnitude)).scaleb(2 * section.percent), section.digits)
    if number is None:
        return None
    text = f"{section.prefix}{number}{section.suffix}".strip()
    return sign + text if text else None


def general_number(value: float) -> str:
    """Excel's General format as far as it matters here: integers without `.0`, float noise rounded away."""
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.15g}"


def _sections(number_format: str) -> list[list[str]]:
    sections: list[list[str]] = [[]]
    for token in _TOKEN.findall(number_format):
        if token == ";":
            sections.append([])
        else:
            sections[-1].append(token)
    return sections


def _section(tokens: list[str]) -> _Section | None:
    """Split a section at its one run of placeholders; None when literals sit between digits or a token
    (a date part, a condition, `@`) is not a number format."""
    kinds = [_kind(token) for token in tokens]
    if None in kinds:
        return None
    digit_at = [i for i, kind in enumerate(kinds) if kind == "digit"]
    if not digit_at:
        first = last = len(tokens)
    else:
        first, last = digit_at[0], digit_at[-1] + 1
        if any(kind != "digit" for kind in kinds[first:last]):
            return None
    literals = [_literal(token) for token in tokens]
    return _Section(
        prefix="".join(literals[:first]),
        digits="".join(tokens[first:last]),
        suffix="".join(literals[last:]),
        percent=tokens.count("%"),
    )


def _kind(token: str) -> str | None:
    if token in _PLACEHOLDERS or token.upper() in ("E+", "E-") or token.lower() == "general":
        return "digit"
    if token.startswith("[") and not (_COLOUR.fullmatch(token) or _CURRENCY.fullmatch(token)):
        return None
    if len(token) == 1 and (token.isalpha() or token == "@" or token == '"'):
        return None
    return "literal"


def _literal(token: str) -> str:
    if token.startswith('"'):
        return token[1:-1]
    if token.startswith("\\"):
        return token[1:]
    if token.startswith("_"):
        return " "
    if token.startswith("*") or _COLOUR.fullmatch(token):
        return ""
    currency = _CURRENCY.fullmatch(token)
    return currency.group(1) if currency else token


def _digits(number: Decimal, digits: str) -> str | None:
    if not digits:
        return ""
    if digits.lower() == "general":
        return general_number(float(number))
    mantissa, marker, exponent = [*_EXPONENT.split(digits, maxsplit=1), "", ""][:3]
    if not set(mantissa + exponent) <= _PLACEHOLDERS or mantissa.count(".") > 1 or "," in mantissa.partition(".")[2]:
        return None
    try:
        return _scientific(number, mantissa, marker, exponent) if marker else _fixed(number, mantissa)
    except InvalidOperation:  # more digits than a float can mean
        return None


def _fixed(number: Decimal, pattern: str) -> str:
    """`#,##0.00`: at least as many integer digits as `0`s, grouped when a `,` sits among them, each trailing
    `,` dividing by 1000; decimals rounded to the placeholders, `0`s always shown and `#`/`?` only if not 0."""
    integer, point, fraction = pattern.partition(".")
    unscaled = integer.rstrip(",")
    number = number.scaleb(-3 * (len(integer) - len(unscaled)))
    rounded = number.quantize(Decimal(1).scaleb(-len(fraction)), ROUND_HALF_UP, _WIDE)
    whole, _, decimals = f"{rounded:f}".partition(".")
    required = len(fraction.rstrip("#?"))
    while len(decimals) > required and decimals.endswith("0"):
        decimals = decimals[:-1]
    whole = whole.lstrip("0").rjust(unscaled.count("0"), "0")
    if "," in unscaled and whole:
        whole = f"{int(whole):,}"
    return whole + point + decimals


def _scientific(number: Decimal, mantissa: str, marker: str, exponent: str) -> str | None:
    """`0.00E+00`: one integer digit, the exponent with at least as many digits as its `0`s and a `+` only
    when the marker is `E+`."""
    if len(mantissa.partition(".")[0]) != 1 or not set(exponent) <= {"0", "#"}:
        return None
    quantum = Decimal(1).scaleb(-len(mantissa.partition(".")[2]))
    power = number.adjusted() if number else 0
    scaled = number.scaleb(-power).quantize(quantum, ROUND_HALF_UP, _WIDE)
    if scaled >= 10:  # 9.999 rounds up to 10.00: one more power of ten
        power += 1
        scaled = number.scaleb(-power).quantize(quantum, ROUND_HALF_UP, _WIDE)
    shown = _fixed(scaled, mantissa)
    sign = "-" if power < 0 else "+" if marker.endswith("+") else ""
    return f"{shown}{marker[0]}{sign}{abs(power):0{max(exponent.count('0'), 1)}d}"
