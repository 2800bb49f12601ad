"""MathML (`<math>`, in HTML, XHTML and EPUB) as LaTeX, as Word's equations are read (parsers/office/omml).

Read as text, `<math>` runs its tokens together (`x=-b±b2-4ac2a`) and, where the page keeps a TeX annotation
(Wikipedia does), repeats the equation as TeX after it. The annotation is the author's own notation and is taken
when present (without MediaWiki's `{\\displaystyle …}` wrapper); otherwise the presentation elements map to LaTeX.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docshelf.parsers.markup.html_tables import local_name
from docshelf.parsers.math_latex import ACCENTS, FUNCTIONS, grouped, matrix, spaced, symbols, token

if TYPE_CHECKING:
    from collections.abc import Callable

    from lxml import etree

_TEX_ENCODINGS = frozenset({"application/x-tex", "tex", "latex", "application/x-latex", "text/x-tex"})
_DISPLAY_STYLE = re.compile(r"^\{\\(?:displaystyle|textstyle)\s*(.*)\}$", re.DOTALL)
_SKIPPED = frozenset({"annotation", "annotation-xml", "none", "mprescripts", "mphantom", "maligngroup", "malignmark"})
_LARGE_OPERATORS = frozenset("∑∏∐∫∬∭∮⋃⋂⋁⋀") | FUNCTIONS


def mathml_latex(element: etree._Element, *, display: bool | None = None) -> str:
    """A `<math>` element as `$…$`, or `$$…$$` when displayed as a block (`display`, by default its attributes
    say); '' when it shows nothing. An equation nested too deep to walk is its characters."""
    if display is None:
        display = str(element.get("display", "")).lower() == "block" or str(element.get("mode", "")) == "display"
    try:
        body = tex_annotation(element)
        if body is None:
            body = spaced(_latex(element))
    except RecursionError:
        body = " ".join(_characters(element).split())
    if not body:
        return ""
    return f"$${body}$$" if display else f"${body}$"


def math_image_latex(image: etree._Element) -> str | None:
    """A MediaWiki equation image (`mwe-math-fallback-image-…`, its alt text the TeX) as `$…$` or `$$…$$`; None for
    any other image. Wikipedia shows these and hides the MathML beside them."""
    classes = str(image.get("class", "")).split()
    kind = next((cls for cls in classes if cls.startswith("mwe-math-fallback-image")), None)
    alt = str(image.get("alt", ""))
    if kind is None or not alt.strip():
        return None
    tex = _unwrapped(alt)
    return f"$${tex}$$" if kind.endswith("display") else f"${tex}$"


def tex_annotation(element: etree._Element) -> str | None:
    """The equation's TeX annotation, without a display-style wrapper; None when it has none."""
    for node in element.iter():
        if local_name(node) == "annotation" and str(node.get("encoding", "")).lower() in _TEX_ENCODINGS:
            return _unwrapped(node.text or "")
    return None


def _unwrapped(tex: str) -> str:
    """TeX with its whitespace collapsed, without MediaWiki's `{\\displaystyle …}` (or `textstyle`) wrapper."""
    tex = " ".join(tex.split())
    wrapped = _DISPLAY_STYLE.match(tex)
    return wrapped.group(1).strip() if wrapped else tex


def _characters(element: etree._Element) -> str:
    return "".join(str(text) for text in element.itertext())


def _children(element: etree._Element) -> list[etree._Element]:
    return [child for child in element if isinstance(child.tag, str)]


def _latex(element: etree._Element) -> str:
    name = local_name(element)
    if name in _SKIPPED:
        return ""
    handler = _HANDLERS.get(name)
    if handler is not None:
        return handler(element)
    return "".join(_latex(child) for child in _children(element))


def _argument(element: etree._Element, index: int) -> str:
    children = _children(element)
    return _latex(children[index]).strip() if index < len(children) else ""


def _token(element: etree._Element) -> str:
    return token(" ".join((element.text or "").split()))


def _text(element: etree._Element) -> str:
    text = " ".join(_characters(element).split())
    return rf"\text{{{text}}}" if text else " "


def _semantics(element: etree._Element) -> str:
    children = _children(element)
    return _latex(children[0]) if children else ""


def _scripts(*scripts: tuple[int, str]) -> Callable[[etree._Element], str]:
    """A base (the first child) with its scripts: (the child holding a script, `_` or `^`), in order."""

    def scripted(element: etree._Element) -> str:
        marks = "".join(f"{mark}{{{_argument(element, index)}}}" for index, mark in scripts)
        return grouped(_argument(element, 0)) + marks

    return scripted


def _fraction(element: etree._Element) -> str:
    return rf"\frac{{{_argument(element, 0)}}}{{{_argument(element, 1)}}}"


def _square_root(element: etree._Element) -> str:
    return rf"\sqrt{{{''.join(_latex(child) for child in _children(element)).strip()}}}"


def _root(element: etree._Element) -> str:
    return rf"\sqrt[{_argument(element, 1)}]{{{_argument(element, 0)}}}"


def _over(element: etree._Element) -> str:
    base, over = _argument(element, 0), _argument(element, 1)
    children = _children(element)
    mark = _characters(children[1]).strip() if len(children) > 1 else ""
    if mark in ACCENTS:
        return f"{ACCENTS[mark]}{{{base}}}"
    if _large(element):
        return f"{grouped(base)}^{{{over}}}"
    return rf"\overset{{{over}}}{{{base}}}"


def _under(element: etree._Element) -> str:
    base, under = _argument(element, 0), _argument(element, 1)
    if _large(element):
        return f"{grouped(base)}_{{{under}}}"
    return rf"\underset{{{under}}}{{{base}}}"


def _large(element: etree._Element) -> bool:
    """Whether the base is a large operator or a function name (`∑`, `lim`): its limits go under and over it."""
    children = _children(element)
    return bool(children) and _characters(children[0]).strip() in _LARGE_OPERATORS


def _fenced(element: etree._Element) -> str:
    opening, closing = str(element.get("open", "(")), str(element.get("close", ")"))
    separators = str(element.get("separators", ",")).split() or [","]
    parts = [_latex(child) for child in _children(element)]
    joined = "".join(part + (separators[min(index, len(separators) - 1)] if index < len(parts) - 1 else "")
                     for index, part in enumerate(parts))  # fmt: skip
    return f"{symbols(opening)}{joined}{symbols(closing)}"


def _table(element: etree._Element) -> str:
    return matrix(
        [
            [_latex(cell).strip() for cell in _children(row) if local_name(cell) == "mtd"]
            for row in _children(element)
            if local_name(row) in ("mtr", "mlabeledtr")
        ]
    )


_HANDLERS: dict[str, Callable[[etree._Element], str]] = {
    "mi": _token,
    "mn": _token,
    "mo": _token,
    "mtext": _text,
    "ms": _text,
    "mspace": lambda _element: " ",
    "semantics": _semantics,
    "msup": _scripts((1, "^")),
    "msub": _scripts((1, "_")),
    "msubsup": _scripts((1, "_"), (2, "^")),
    "munderover": lambda element: _under(element) + f"^{{{_argument(element, 2)}}}",
    "mover": _over,
    "munder": _under,
    "mfrac": _fraction,
    "msqrt": _square_root,
    "mroot": _root,
    "mfenced": _fenced,
    "mtable": _table,
}
