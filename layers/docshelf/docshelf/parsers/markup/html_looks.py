"""How an HTML element sets its text: bold (`<b>`, `<strong>`, `font-weight`) and size (`font-size` in the style,
`<font size>`, `<big>`, `<small>`), over what it inherits; for headings typed by formatting alone (a word
processor's page saved as HTML: `<p><b><span style="font-size:14pt">Scope</span></b></p>`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree

# Bold, and the size in points: a browser's default text is 16 px.
Set = tuple[bool, float]
DEFAULT: Set = (False, 12.0)

_BOLD_TAGS = frozenset({"b", "strong"})
_WEIGHT = re.compile(r"font-weight\s*:\s*([a-z0-9]+)", re.IGNORECASE)
_SIZE = re.compile(r"font-size\s*:\s*([0-9.]+)\s*(pt|px|em|rem|%)", re.IGNORECASE)
# <font size="1"> to "7", as browsers render them (10, 13, 16, 18, 24, 32, 48 px).
_FONT_SIZES = (7.5, 10.0, 12.0, 13.5, 18.0, 24.0, 36.0)
_RELATIVE_TAGS = {"big": 1.2, "small": 0.83}


def element_set(element: etree._Element, name: str, outer: Set) -> Set:
    """The bold and size the element's text has, inheriting `outer`."""
    bold, size = outer
    if name in _BOLD_TAGS:
        bold = True
    elif name in _RELATIVE_TAGS:
        size = round(size * _RELATIVE_TAGS[name], 1)
    elif name == "font":
        size = _font_size(str(element.get("size", "")), size)
    style = element.get("style")
    if style and "font" in style:
        weight = _WEIGHT.search(style)
        if weight is not None:
            value = weight.group(1).lower()
            bold = value in ("bold", "bolder") or (value.isdigit() and int(value) >= 600)
        found = _SIZE.search(style)
        if found is not None:
            size = _css_size(float(found.group(1)), found.group(2).lower(), size)
    return (bold, size) if (bold, size) != outer else outer


def _font_size(value: str, size: float) -> float:
    value = value.strip()
    if value[:1] in "+-" and value[1:].isdigit():
        return _FONT_SIZES[max(0, min(6, 2 + int(value)))]
    return _FONT_SIZES[max(0, min(6, int(value) - 1))] if value.isdigit() else size


def _css_size(number: float, unit: str, size: float) -> float:
    if unit == "pt":
        return number
    if unit == "px":
        return round(number * 0.75, 1)
    if unit == "%":
        return round(size * number / 100, 1)
    return round((size if unit == "em" else DEFAULT[1]) * number, 1)
