"""How an HTML element sets its text: bold (`<b>`, `<strong>`, `font-weight`) and size (`font-size`, `<font size>`,
`<big>`, `<small>`), from its tag, the page's style sheets (`css_looks.ClassStyles`) and its `style`, over what it
inherits; for headings typed by formatting alone (a word processor's page saved as HTML:
`<p><b><span style="font-size:14pt">Scope</span></b></p>`, or Google Docs' `<span class="c4">Scope</span>`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from docshelf.parsers.markup.css_looks import MAX_SHEET_CHARS, ClassStyles, Declared, size_in_points, style_declared

if TYPE_CHECKING:
    from lxml import etree

# Bold, and the size in points: a browser's default text is 16 px.
Set = tuple[bool, float]
DEFAULT: Set = (False, 12.0)

_BOLD_TAGS = frozenset({"b", "strong"})
# <font size="1"> to "7", as browsers render them (10, 13, 16, 18, 24, 32, 48 px).
_FONT_SIZES = (7.5, 10.0, 12.0, 13.5, 18.0, 24.0, 36.0)
_RELATIVE_TAGS = {"big": 1.2, "small": 0.83}


def element_set(element: etree._Element, name: str, outer: Set, sheet: ClassStyles | None = None) -> Set:
    """The bold and size the element's text has, inheriting `outer`; `sheet`: the page's rules."""
    bold, size = outer
    if name in _BOLD_TAGS:
        bold = True
    elif name in _RELATIVE_TAGS:
        size = round(size * _RELATIVE_TAGS[name], 1)
    elif name == "font":
        size = _font_size(str(element.get("size", "")), size)
    inner = (bold, size)
    if sheet:
        for says in sheet.matching(name, str(element.get("class") or "")):
            inner = _applied(says, inner, outer[1])
    style = element.get("style")
    if style and "font" in style:
        inner = _applied(style_declared(str(style)), inner, outer[1])
    return inner if inner != outer else outer


def _applied(says: Declared, inner: Set, outer_size: float) -> Set:
    bold, size = says
    return (
        inner[0] if bold is None else bold,
        inner[1] if size is None else size_in_points(size, outer_size, DEFAULT[1]),
    )


def _font_size(value: str, size: float) -> float:
    value = value.strip()
    if value[:1] in "+-" and value[1:].isdigit():
        return _FONT_SIZES[max(0, min(6, 2 + int(value)))]
    return _FONT_SIZES[max(0, min(6, int(value) - 1))] if value.isdigit() else size


def page_sheet(root: etree._Element, linked: Callable[[str], bytes | None] | None = None) -> ClassStyles:
    """The rules of a page's `<style>` elements and, through `linked` (a link's href -> the sheet's bytes, or None),
    of its linked style sheets, in the page's order. A web page's linked sheets are URLs, never fetched."""
    texts: list[str] = []
    for element in root.iter("style", "link"):
        if element.tag == "style":
            texts.append("".join(str(part) for part in element.itertext()))
        elif linked is not None and "stylesheet" in str(element.get("rel", "")).lower().split():
            texts.append((linked(str(element.get("href") or "")) or b"").decode("utf-8", errors="replace"))
    return _sheet_of(tuple(text for text in texts if text.strip()))


@lru_cache(maxsize=8)
def _sheet_of(texts: tuple[str, ...]) -> ClassStyles:
    """The chapters of a book link the same sheets: each set is read once."""
    sheet = ClassStyles()
    room = MAX_SHEET_CHARS
    for text in texts:
        sheet.read(text[:room])
        room -= min(len(text), room)
    return sheet
