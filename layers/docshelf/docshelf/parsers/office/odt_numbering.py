"""OpenDocument numbering: the labels ("2.1", "a.", "IV.") a word processor draws in front of numbered headings and
list items, which the file does not store with the text.

Headings are numbered by the outline style (text:outline-style, one level style per outline level), list items by
their list's style (text:list-style: text:list-level-style-number or -bullet per level). A number level gives its
format (style:num-format: 1, a, A, i, I, or empty for none), its prefix and suffix, its start value and how many
levels it shows (text:display-levels: 3 shows "1.2.3"); LibreOffice also writes the whole label as a template
(loext:num-list-format, "%1%.%2%."), used when present. Counting is per list: a new top-level list starts again
unless it continues another (text:continue-list, text:continue-numbering); an item or heading may set its own
value (text:start-value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docshelf.parsers.office.docx_numbering import format_number
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
LOEXT = "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
LEVELS = 10
_FORMATS = {"1": "decimal", "a": "lowerLetter", "A": "upperLetter", "i": "lowerRoman", "I": "upperRoman"}
_TEMPLATE = re.compile(r"%(\d+)%")


@dataclass(frozen=True, slots=True)
class LevelStyle:
    number: str = ""  # a docx_numbering format name; "" for a bullet or an unnumbered level
    prefix: str = ""
    suffix: str = ""
    start: int = 1
    shown: int = 1  # text:display-levels
    template: str | None = None  # loext:num-list-format


@dataclass(slots=True)
class Counters:
    values: list[int] = field(default_factory=lambda: [0] * (LEVELS + 1))  # by level, 1-based; 0 not yet counted

    def advance(self, levels: dict[int, LevelStyle], level: int, value: int | None = None) -> str:
        """Count an item (or heading) at `level` (1-based): its number, deeper levels restarted; its label."""
        level = max(1, min(level, LEVELS))
        style = levels.get(level, LevelStyle())
        if value is not None:
            self.values[level] = value
        else:
            self.values[level] = self.values[level] + 1 if self.values[level] else style.start
        for deeper in range(level + 1, LEVELS + 1):
            self.values[deeper] = 0
        return label(levels, self.values, level)


def label(levels: dict[int, LevelStyle], values: list[int], level: int) -> str:
    style = levels.get(level, LevelStyle())
    if not style.number:
        return ""

    def shown(at: int) -> str:
        source = levels.get(at, LevelStyle())
        return format_number(values[at] or source.start, source.number or "decimal")

    if style.template is not None and _TEMPLATE.search(style.template):
        text = _TEMPLATE.sub(lambda match: shown(min(int(match.group(1)), level)), style.template)
    else:
        first = max(1, level - style.shown + 1)
        text = style.prefix + ".".join(shown(at) for at in range(first, level + 1)) + style.suffix
    return " ".join(text.split())


@dataclass(slots=True)
class Numbering:
    """The document's list styles and outline style, and the counters of the lists read so far."""

    lists: dict[str, dict[int, LevelStyle]] = field(default_factory=dict)
    outline: dict[int, LevelStyle] = field(default_factory=dict)
    paragraph_lists: dict[str, str] = field(default_factory=dict)  # paragraph style -> its list style
    headings: Counters = field(default_factory=Counters)
    by_id: dict[str, Counters] = field(default_factory=dict)  # counters of lists by xml:id
    last: dict[str, Counters] = field(default_factory=dict)  # the last top-level list's counters by style

    @classmethod
    def read(cls, *roots: etree._Element) -> Numbering:
        """The list and outline styles of content.xml and styles.xml (automatic and common styles)."""
        numbering = cls()
        for root in roots:
            for element in root.iter(f"{{{TEXT}}}list-style", f"{{{TEXT}}}outline-style", f"{{{STYLE}}}style"):
                name = str(element.get(f"{{{STYLE}}}name", ""))
                if local(element.tag) == "style":
                    list_style = element.get(f"{{{STYLE}}}list-style-name")
                    if list_style:
                        numbering.paragraph_lists[name] = str(list_style)
                elif local(element.tag) == "outline-style":
                    numbering.outline = _levels(element)
                else:
                    numbering.lists[name] = _levels(element)
        return numbering

    def start_list(self, element: etree._Element, style: str) -> Counters:
        """The counters a top-level text:list counts with: its own, or those of the list it continues."""
        continued = element.get(f"{{{TEXT}}}continue-list")
        counters: Counters | None = None
        if continued:
            counters = self.by_id.get(str(continued))
        elif str(element.get(f"{{{TEXT}}}continue-numbering", "")) == "true":
            counters = self.last.get(style)
        counters = counters or Counters()
        self.last[style] = counters
        list_id = element.get("{http://www.w3.org/XML/1998/namespace}id") or element.get(f"{{{TEXT}}}id")
        if list_id:
            self.by_id[str(list_id)] = counters
        return counters


def _levels(element: etree._Element) -> dict[int, LevelStyle]:
    levels: dict[int, LevelStyle] = {}
    for child in element:
        kind = local(child.tag)
        level = _number(child.get(f"{{{TEXT}}}level"), 1)
        if kind in ("list-level-style-number", "outline-level-style"):
            fmt = str(child.get(f"{{{STYLE}}}num-format", ""))
            levels[level] = LevelStyle(
                number=_FORMATS.get(fmt, "decimal" if fmt else ""),
                prefix=str(child.get(f"{{{STYLE}}}num-prefix", "")),
                suffix=str(child.get(f"{{{STYLE}}}num-suffix", "")),
                start=_number(child.get(f"{{{TEXT}}}start-value"), 1),
                shown=_number(child.get(f"{{{TEXT}}}display-levels"), 1),
                template=child.get(f"{{{LOEXT}}}num-list-format"),
            )
        elif kind in ("list-level-style-bullet", "list-level-style-image"):
            levels[level] = LevelStyle()
    return levels


def _number(value: object, default: int) -> int:
    text = str(value or "")
    return max(0, min(int(text), 1_000_000)) if text.isdigit() else default
