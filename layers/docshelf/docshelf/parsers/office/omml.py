"""Office Math (OMML, `m:oMath`) as LaTeX: what Word's equations say, in the notation readers and models know.

Read as plain text, an equation loses its structure: the quadratic formula became `x=-b±b2-4ac2a`. Each OMML
construct maps to its LaTeX form (fractions, scripts, radicals, delimiters, n-ary operators, functions, accents,
bars, limits, matrices and equation arrays); symbols Word writes as Unicode become LaTeX commands; anything else is
read through its children.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from lxml import etree

M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
OMATH = f"{{{M_NS}}}oMath"
OMATH_PARA = f"{{{M_NS}}}oMathPara"

_SYMBOLS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\epsilon", "ϵ": r"\epsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ι": r"\iota", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu",
    "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "υ": r"\upsilon",
    "φ": r"\phi", "ϕ": r"\phi", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta",
    "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi", "Σ": r"\Sigma", "Υ": r"\Upsilon", "Φ": r"\Phi",
    "Ψ": r"\Psi", "Ω": r"\Omega", "±": r"\pm", "∓": r"\mp", "×": r"\times", "÷": r"\div", "·": r"\cdot",
    "⋅": r"\cdot", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "∼": r"\sim",
    "∝": r"\propto", "∞": r"\infty", "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow",
    "⇒": r"\Rightarrow", "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "∈": r"\in", "∉": r"\notin",
    "⊂": r"\subset", "⊆": r"\subseteq", "⊃": r"\supset", "⊇": r"\supseteq", "∪": r"\cup", "∩": r"\cap",
    "∅": r"\emptyset", "∂": r"\partial", "∇": r"\nabla", "∀": r"\forall", "∃": r"\exists", "¬": r"\neg",
    "∧": r"\wedge", "∨": r"\vee", "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint",
    "∮": r"\oint", "⋯": r"\cdots", "…": r"\ldots", "ℏ": r"\hbar", "ℓ": r"\ell", "°": r"^{\circ}", "′": "'",
    "−": "-", "{": r"\{", "}": r"\}", "%": r"\%", "#": r"\#", "&": r"\&", "_": r"\_", "$": r"\$",
    "\\": r"\backslash",
}  # fmt: skip
_SPACE_BEFORE_MARK = re.compile(r"(?<=[A-Za-z]) +(?=[^A-Za-z\\ ])|(?<=[{(\[]) +")
_SPACES = re.compile(r"  +")
_FUNCTIONS = frozenset(
    ["sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "coth", "log",
     "ln", "lg", "exp", "lim", "max", "min", "det", "sup", "inf", "gcd", "deg", "dim", "ker", "arg", "Pr"]
)  # fmt: skip
_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0305": r"\bar", "\u0307": r"\dot",
            "\u0308": r"\ddot", "\u20d7": r"\vec", "\u0301": r"\acute", "\u0300": r"\grave",
            "\u030c": r"\check"}  # fmt: skip
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
        equations = [_spaced(_latex(child)) for child in element if child.tag == OMATH]
        body = " ".join(equation for equation in equations if equation)
        return f"$${body}$$" if body else ""
    body = _spaced(_latex(element))
    return f"${body}$" if body else ""


def _spaced(latex: str) -> str:
    """The equation with each symbol command's space (`\\pi r`, not `\\pir`) kept only before a letter or another
    command."""
    return _SPACES.sub(" ", _SPACE_BEFORE_MARK.sub("", latex)).strip()


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


def _grouped(text: str) -> str:
    """A script's base or argument: one symbol as it is, more in braces."""
    text = text.strip()
    return text if len(text) == 1 or (text.startswith("\\") and text[1:].isalpha()) else f"{{{text}}}"


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
    if text in _FUNCTIONS:
        return _command("\\" + text)
    return _symbols(text)


def _symbols(text: str) -> str:
    """Unicode symbols as LaTeX commands, each command a space before what follows (`_spaced` trims it)."""
    return "".join(_command(_SYMBOLS[char]) if char in _SYMBOLS else char for char in text)


def _command(latex: str) -> str:
    return latex + " " if latex[-1:].isalpha() else latex


def _fraction(element: etree._Element) -> str:
    numerator, denominator = _part(element, "num"), _part(element, "den")
    if _property(element, "fPr", "type", "bar") == "lin":
        return f"{numerator}/{denominator}"
    return rf"\frac{{{numerator}}}{{{denominator}}}"


def _scripts(*scripts: tuple[str, str]) -> Callable[[etree._Element], str]:
    """A base with its scripts: (the part holding a script, `_` or `^`) in the order they follow the base."""

    def scripted(element: etree._Element) -> str:
        marks = "".join(f"{mark}{{{_part(element, part)}}}" for part, mark in scripts)
        return _grouped(_part(element, "e")) + marks

    return scripted


def _pre_scripts(element: etree._Element) -> str:
    return f"{{}}_{{{_part(element, 'sub')}}}^{{{_part(element, 'sup')}}}{_grouped(_part(element, 'e'))}"


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
    inner = _symbols(separator).join(_latex(child) for child in element if child.tag == m("e"))
    return f"{_symbols(opening)}{inner}{_symbols(closing)}"


def _n_ary(element: etree._Element) -> str:
    symbol = _property(element, "naryPr", "chr", "∫")
    operator = _command(_NARY[symbol]) if symbol in _NARY else _symbols(symbol)
    lower, upper = _part(element, "sub"), _part(element, "sup")
    limits = (f"_{{{lower}}}" if lower else "") + (f"^{{{upper}}}" if upper else "")
    return f"{operator}{limits}{_grouped(_part(element, 'e'))}"


def _function(element: etree._Element) -> str:
    return f"{_part(element, 'fName')} {_grouped(_part(element, 'e'))}"


def _accent(element: etree._Element) -> str:
    command = _ACCENTS.get(_property(element, "accPr", "chr", "\u0302"), r"\hat")
    return f"{command}{{{_part(element, 'e')}}}"


def _bar(element: etree._Element) -> str:
    command = r"\underline" if _property(element, "barPr", "pos", "top") == "bot" else r"\overline"
    return f"{command}{{{_part(element, 'e')}}}"


def _matrix(element: etree._Element) -> str:
    rows = [
        " & ".join("".join(_latex(child) for child in cell) for cell in row if cell.tag == m("e"))
        for row in element
        if row.tag == m("mr")
    ]
    return r"\begin{matrix}" + r" \\ ".join(rows) + r"\end{matrix}"


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
