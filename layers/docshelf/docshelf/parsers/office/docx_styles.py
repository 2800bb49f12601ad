"""Paragraph styles of a WordprocessingML document: heading levels and list numbering through the basedOn chain."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.parsers.office.code_blocks import is_code_style
from docshelf.parsers.office.docx_numbering import flag, int_val, w, w_val

if TYPE_CHECKING:
    from lxml import etree

MAX_HEADING_LEVEL = 9
_HEADING_NAME = re.compile(
    r"^(?:heading|标题|標題|見出し|überschrift|titre|título|titolo|kop)\s*([1-9])$", re.IGNORECASE
)
_LIST_STYLE_LEVEL = re.compile(r"^list(?: bullet| number| continue)? ([2-9])$", re.IGNORECASE)
_TITLE_NAMES = {"title", "标题", "標題", "表題"}
# A subtitle is a paragraph under the title, not a heading, even based on Title (pandoc's reference.docx).
_SUBTITLE_NAMES = {"subtitle", "副标题", "副標題", "副題", "サブタイトル"}
_CHAIN_LIMIT = 20
_BOLD, _SIZE, _RUN_STYLE = w("b"), w("sz"), w("rStyle")
# What Word takes when no style and no default sets a size: 10 pt.
_DEFAULT_SIZE = 10.0


@dataclass(frozen=True, slots=True)
class RunLook:
    """A run's bold and size as some level of formatting sets them (None: not set there)."""

    bold: bool | None = None
    size: float | None = None


@dataclass(frozen=True, slots=True)
class Style:
    name: str
    based_on: str | None
    outline_level: int | None
    num_id: str | None
    ilvl: int | None
    look: RunLook = RunLook()


def run_look(rpr: etree._Element | None) -> RunLook:
    """The bold (w:b) and size (w:sz, half-points) a run-properties element sets."""
    if rpr is None:
        return RunLook()
    bold = rpr.find(_BOLD)
    half_points = int_val(rpr.find(_SIZE))
    return RunLook(
        bold=None if bold is None else flag(bold),
        size=half_points / 2 if half_points is not None and half_points > 0 else None,
    )


def outline_level(ppr: etree._Element | None) -> int | None:
    """w:outlineLvl as a 0-based heading level; 9 (and anything out of range) means body text."""
    if ppr is None:
        return None
    level = int_val(ppr.find(w("outlineLvl")))
    return level if level is not None and 0 <= level < MAX_HEADING_LEVEL else (-1 if level is not None else None)


def _parse_style(element: etree._Element) -> Style:
    ppr = element.find(w("pPr"))
    num_pr = ppr.find(w("numPr")) if ppr is not None else None
    return Style(
        name=(w_val(element.find(w("name"))) or "").strip(),
        based_on=w_val(element.find(w("basedOn"))),
        outline_level=outline_level(ppr),
        num_id=w_val(num_pr.find(w("numId"))) if num_pr is not None else None,
        ilvl=int_val(num_pr.find(w("ilvl"))) if num_pr is not None else None,
        look=run_look(element.find(w("rPr"))),
    )


def _name_level(name: str) -> int | None:
    lowered = name.lower()
    if lowered in _TITLE_NAMES:
        return 1
    match = _HEADING_NAME.match(lowered)
    return int(match.group(1)) if match else None


class StyleSheet:
    def __init__(self, root: etree._Element | None) -> None:
        self._styles: dict[str, Style] = {}
        self._character_styles: dict[str, Style] = {}
        self.default_paragraph_style: str | None = None
        self._default_look = RunLook()
        # (bold, size) by (character style, paragraph style), through their chains and the defaults
        self._styled_looks: dict[tuple[str | None, str | None], tuple[bool, float]] = {}
        if root is None:
            return
        self._default_look = run_look(root.find(f"{w('docDefaults')}/{w('rPrDefault')}/{w('rPr')}"))
        for element in root.findall(w("style")):
            style_id = element.get(w("styleId"))
            kind = element.get(w("type"), "paragraph")
            if style_id is not None and kind == "character":
                self._character_styles[style_id] = _parse_style(element)
            if style_id is None or kind != "paragraph":
                continue
            self._styles[style_id] = _parse_style(element)
            if element.get(w("default")) in ("1", "true", "on"):
                self.default_paragraph_style = style_id

    def _chain(self, style_id: str | None, styles: dict[str, Style] | None = None) -> list[Style]:
        """The style and those it is based on: a paragraph style's, the default paragraph style for none; or, with
        `styles`, another kind's (character styles), none for none."""
        current = style_id
        if styles is None:
            styles = self._styles
            current = style_id if style_id is not None else self.default_paragraph_style
        chain: list[Style] = []
        seen: set[str] = set()
        while current is not None and current not in seen and len(chain) < _CHAIN_LIMIT:
            seen.add(current)
            style = styles.get(current)
            if style is None:
                break
            chain.append(style)
            current = style.based_on
        return chain

    def name(self, style_id: str | None) -> str:
        chain = self._chain(style_id)
        return chain[0].name if chain else ""

    def heading_level(self, style_id: str | None) -> int | None:
        """1-based heading level from the style's name or outline level, inherited through basedOn."""
        for style in self._chain(style_id):
            if style.name.lower() in _SUBTITLE_NAMES:  # its own outline level only; not the Title's it is based on
                return None if style.outline_level is None or style.outline_level < 0 else style.outline_level + 1
            by_name = _name_level(style.name)
            if by_name is not None:
                return by_name
            if style.outline_level is not None:
                return None if style.outline_level < 0 else style.outline_level + 1
        return None

    def numbering(self, style_id: str | None) -> tuple[str, int] | None:
        """(numId, ilvl) a style attaches to its paragraphs, if any."""
        for style in self._chain(style_id):
            if style.num_id is not None:
                return style.num_id, style.ilvl or 0
        return None

    def is_code(self, style_id: str | None) -> bool:
        """A code style (code_blocks: "Source Code", "HTML Preformatted"…), or one based on it."""
        return any(is_code_style(style.name) for style in self._chain(style_id))

    def list_level_hint(self, style_id: str | None) -> int:
        """Nesting implied by "List Bullet 2" and friends, whose numbering sits on its own list at level 0."""
        match = _LIST_STYLE_LEVEL.match(self.name(style_id))
        return int(match.group(1)) - 1 if match else 0

    def run_bold_and_size(self, rpr: etree._Element | None, paragraph_style: str | None) -> tuple[bool, float]:
        """Whether a run is bold and its size in points: its own properties, else its character style's, else its
        paragraph style's (each through basedOn), else the document's defaults."""
        own = run_look(rpr)
        character_style = w_val(rpr.find(_RUN_STYLE)) if rpr is not None else None
        styled = self._styled_looks.get((character_style, paragraph_style))
        if styled is None:
            looks = [style.look for style in self._chain(character_style, self._character_styles)]
            looks += [style.look for style in self._chain(paragraph_style)]
            looks.append(self._default_look)
            styled = self._styled_looks[character_style, paragraph_style] = (
                next((look.bold for look in looks if look.bold is not None), False),
                next((look.size for look in looks if look.size is not None), _DEFAULT_SIZE),
            )
        return (
            own.bold if own.bold is not None else styled[0],
            own.size if own.size is not None else styled[1],
        )
