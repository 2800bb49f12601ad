"""Office Math (OMML, `m:oMath`) as LaTeX: what Word's equations say, in the notation readers and models know.

Read as plain text, an equation loses its structure: the quadratic formula became `x=-b±b2-4ac2a`. Each OMML
construct maps to its LaTeX form (fractions, scripts, radicals, delimiters, n-ary operators, functions, accents,
bars, limits, matrices and equation arrays); symbols Word writes as Unicode become LaTeX commands; anything else is
read through its children.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.parsers.math_latex import ACCENTS, command, grouped, matrix, spaced, symbols, token

if TYPE_CHECKING:
    from collections.abc import Callable

    from lxml import etree

M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
OMATH = f"{{{M_NS}}}oMath"
OMATH_PARA = f"{{{M_NS}}}oMathPara"

_NARY = {"∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint",
         "∮": r"\oint", "⋃": r"\bigcup", "⋂": r"\bigcap", "⋁": r"\bigvee", "⋀": r"\bigwedge"}  # fmt: skip


def m(name: str) -> str:
    return f"{{{M_NS}}}{name}"


def omml_latex(element: etree._Element) -> str:
    """An `m:oMath` as `$…$`, an `m:oMathPara` as `$$…$$` (its equations a space apart); '' when it shows nothing.
    An equation nested too deep to walk is its characters."""
    try:
        return _equation(element)
    except RecursionError:
        text = "".join(node.text or "" for node in element.iter(m("t")))
        return f"${text}$" if text.strip() else ""


def _equation(element: etree._Element) -> str:
    if element.tag == OMATH_PARA:
        equations = [spaced(_latex(child)) for child in element if child.tag == OMATH]
        body = " ".join(equation for equation in equations if equation)
        return f"$${body}$$" if body else ""
    body = spaced(_latex(element))
    return f"${body}$" if body else ""


def _latex(element: etree._Element) -> str:
    tag = element.tag
    if not isinstance(tag, str) or tag.endswith("Pr"):  # properties (m:rPr, m:fPr, w:rPr…) show nothing
        return ""
    handler = _HANDLERS.get(tag)
    if handler is not None:
        return handler(element)
    return "".join(_latex(child) for child in element)


def _part(element: etree._Element, name: str) -> str:
    found = element.find(m(name))
    return "".join(_latex(child) for child in found) if found is not None else ""


def _property(element: etree._Element, properties: str, name: str, default: str) -> str:
    found = element.find(f"{m(properties)}/{m(name)}")
    if found is None:
        return default
    value = found.get(m("val"))
    return default if value is None else value


def _run(element: etree._Element) -> str:
    text = "".join(node.text or "" for node in element.iter(m("t")))
    normal = element.find(f"{m('rPr')}/{m('nor')}") is not None
    if normal and text.strip():
        return rf"\text{{{text}}}"
    return token(text)


def _fraction(element: etree._Element) -> str:
    numerator, denominator = _part(element, "num"), _part(element, "den")
    if _property(element, "fPr", "type", "bar") == "lin":
        return f"{numerator}/{denominator}"
    return rf"\frac{{{numerator}}}{{{denominator}}}"


def _scripts(*scripts: tuple[str, str]) -> Callable[[etree._Element], str]:
    """A base with its scripts: (the part holding a script, `_` or `^`) in the order they follow the base."""

    def scripted(element: etree._Element) -> str:
        marks = "".join(f"{mark}{{{_part(element, part)}}}" for part, mark in scripts)
        return grouped(_part(element, "e")) + marks

    return scripted


def _pre_scripts(element: etree._Element) -> str:
    return f"{{}}_{{{_part(element, 'sub')}}}^{{{_part(element, 'sup')}}}{grouped(_part(element, 'e'))}"


def _radical(element: etree._Element) -> str:
    degree = _part(element, "deg")
    hidden = _property(element, "radPr", "degHide", "0") in ("1", "on", "true")
    if degree and not hidden:
        return rf"\sqrt[{degree}]{{{_part(element, 'e')}}}"
    return rf"\sqrt{{{_part(element, 'e')}}}"


def _delimiters(element: etree._Element) -> str:
    opening = _property(element, "dPr", "begChr", "(")
    closing = _property(element, "dPr", "endChr", ")")
    separator = _property(element, "dPr", "sepChr", "|")
    inner = symbols(separator).join(_latex(child) for child in element if child.tag == m("e"))
    return f"{symbols(opening)}{inner}{symbols(closing)}"


def _n_ary(element: etree._Element) -> str:
    symbol = _property(element, "naryPr", "chr", "∫")
    operator = command(_NARY[symbol]) if symbol in _NARY else symbols(symbol)
    lower, upper = _part(element, "sub"), _part(element, "sup")
    limits = (f"_{{{lower}}}" if lower else "") + (f"^{{{upper}}}" if upper else "")
    return f"{operator}{limits}{grouped(_part(element, 'e'))}"


def _function(element: etree._Element) -> str:
    return f"{_part(element, 'fName')} {grouped(_part(element, 'e'))}"


def _accent(element: etree._Element) -> str:
    command = ACCENTS.get(_property(element, "accPr", "chr", "\u0302"), r"\hat")
    return f"{command}{{{_part(element, 'e')}}}"


def _bar(element: etree._Element) -> str:
    # ISO/IEC 29500 and Office place a bar without a position below its base (ECMA-376's first edition said above).
    command = r"\underline" if _property(element, "barPr", "pos", "bot") == "bot" else r"\overline"
    return f"{command}{{{_part(element, 'e')}}}"


def _matrix(element: etree._Element) -> str:
    return matrix(
        [
            ["".join(_latex(child) for child in cell) for cell in row if cell.tag == m("e")]
            for row in element
            if row.tag == m("mr")
        ]
    )


def _equation_array(element: etree._Element) -> str:
    rows = ["".join(_latex(child) for child in row) for row in element if row.tag == m("e")]
    return r"\begin{array}{l}" + r" \\ ".join(rows) + r"\end{array}"


_HANDLERS: dict[str, Callable[[etree._Element], str]] = {
    m("r"): _run,
    m("f"): _fraction,
    m("sSup"): _scripts(("sup", "^")),
    m("sSub"): _scripts(("sub", "_")),
    m("sSubSup"): _scripts(("sub", "_"), ("sup", "^")),
    m("sPre"): _pre_scripts,
    m("rad"): _radical,
    m("d"): _delimiters,
    m("nary"): _n_ary,
    m("func"): _function,
    m("acc"): _accent,
    m("bar"): _bar,
    m("limLow"): _scripts(("lim", "_")),
    m("limUpp"): _scripts(("lim", "^")),
    m("m"): _matrix,
    m("eqArr"): _equation_array,
}
