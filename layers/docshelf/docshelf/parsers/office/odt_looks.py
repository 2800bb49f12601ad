"""How an OpenDocument paragraph's text is set (bold, size), through its paragraph style, the spans inside it and
their parent styles, for headings typed by formatting alone (parsers/formatted_headings)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.parsers.formatted_headings import Look
from docshelf.parsers.xml_safety import local
from docshelf.scripts import east_asian

if TYPE_CHECKING:
    from lxml import etree

STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_DEFAULT_SIZE = 12.0
_CHAIN_LIMIT = 20
_POINTS_PER = {"pt": 1.0, "px": 0.75, "in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4, "pc": 12.0}
# Text inside these is not the paragraph's own running text.
_NOT_RUNNING = frozenset({"note", "frame", "annotation", "ruby-text", "number", "list", "table"})


@dataclass(frozen=True, slots=True)
class _Set:
    """What one style sets itself (None: inherited); a size may be a share of the parent's."""

    bold: bool | None = None
    size: str | None = None
    bold_asian: bool | None = None
    size_asian: str | None = None


@dataclass(frozen=True, slots=True)
class _Resolved:
    bold: bool
    size: float
    bold_asian: bool
    size_asian: float


class OdtLooks:
    def __init__(self, roots: list[etree._Element]) -> None:
        self._styles: dict[tuple[str, str], tuple[str, _Set]] = {}
        self._defaults: dict[str, _Set] = {}
        for root in roots:
            for element in root.iter(f"{{{STYLE}}}style", f"{{{STYLE}}}default-style"):
                family = str(element.get(f"{{{STYLE}}}family", ""))
                setting = _setting(element.find(f"{{{STYLE}}}text-properties"))
                if local(element.tag) == "default-style":
                    self._defaults[family] = setting
                else:
                    name = str(element.get(f"{{{STYLE}}}name", ""))
                    self._styles[family, name] = (str(element.get(f"{{{STYLE}}}parent-style-name", "")), setting)
        self._resolved: dict[tuple[str, str, _Resolved | None], _Resolved] = {}

    def paragraph_look(self, paragraph: etree._Element) -> Look | None:
        """Bold when all the paragraph's running text is, and the size of most of its characters; None without
        text."""
        base = self._resolve("paragraph", str(paragraph.get(f"{{{TEXT}}}style-name", "")), None)
        counts: Counter[tuple[bool, float]] = Counter()
        self._count(paragraph, base, counts)
        return Look.of(counts)

    def _count(self, element: etree._Element, resolved: _Resolved, counts: Counter[tuple[bool, float]]) -> None:
        _add(element.text, resolved, counts)
        for child in element:
            name = local(child.tag) if isinstance(child.tag, str) else ""
            if name == "span":
                self._count(child, self._resolve("text", str(child.get(f"{{{TEXT}}}style-name", "")), resolved), counts)
            elif name and name not in _NOT_RUNNING:
                self._count(child, resolved, counts)
            _add(child.tail, resolved, counts)

    def _resolve(self, family: str, name: str, outer: _Resolved | None) -> _Resolved:
        """A style's looks through its parents, over `outer` (the paragraph's, for a span) or the family's default."""
        key = (family, name, outer)
        found = self._resolved.get(key)
        if found is not None:
            return found
        chain: list[_Set] = []
        current, seen = name, 0
        while current and seen < _CHAIN_LIMIT and (family, current) in self._styles:
            parent, setting = self._styles[family, current]
            chain.append(setting)
            current, seen = parent, seen + 1
        below = outer or _over(_Resolved(False, _DEFAULT_SIZE, False, _DEFAULT_SIZE), self._defaults.get(family))
        for setting in reversed(chain):
            below = _over(below, setting)
        self._resolved[key] = below
        return below


def _over(below: _Resolved, setting: _Set | None) -> _Resolved:
    if setting is None:
        return below
    return _Resolved(
        bold=below.bold if setting.bold is None else setting.bold,
        size=_size(setting.size, below.size),
        bold_asian=below.bold_asian if setting.bold_asian is None else setting.bold_asian,
        size_asian=_size(setting.size_asian, below.size_asian),
    )


def _setting(properties: etree._Element | None) -> _Set:
    if properties is None:
        return _Set()
    return _Set(
        bold=_weight(properties.get(f"{{{FO}}}font-weight")),
        size=properties.get(f"{{{FO}}}font-size"),
        bold_asian=_weight(properties.get(f"{{{STYLE}}}font-weight-asian")),
        size_asian=properties.get(f"{{{STYLE}}}font-size-asian"),
    )


def _weight(value: str | None) -> bool | None:
    if value is None:
        return None
    return value == "bold" or (value.isdigit() and int(value) >= 600)


def length_points(value: str | None) -> float | None:
    """An OpenDocument length (`2.54cm`, `12pt`, `1in`) in points; None when it is none."""
    for unit, points in _POINTS_PER.items():
        if value and value.endswith(unit):
            try:
                return float(value[: -len(unit)]) * points
            except ValueError:
                return None
    return None


def _size(value: str | None, parent: float) -> float:
    """A size in points from `12pt`, `0.5in`, `130%` (of the parent's), or the parent's when unreadable."""
    if not value:
        return parent
    try:
        if value.endswith("%"):
            return round(parent * float(value[:-1]) / 100, 1)
        for unit, points in _POINTS_PER.items():
            if value.endswith(unit):
                return round(float(value[: -len(unit)]) * points, 1)
    except ValueError:
        return parent
    return parent


def _add(text: str | None, resolved: _Resolved, counts: Counter[tuple[bool, float]]) -> None:
    if not text:
        return
    if text.isascii():
        counts[resolved.bold, resolved.size] += len(text) - sum(map(text.count, " \t\n\r"))
        return
    for character in text:
        if character.isspace():
            continue
        if east_asian(character):
            counts[resolved.bold_asian, resolved.size_asian] += 1
        else:
            counts[resolved.bold, resolved.size] += 1
