"""WordprocessingML numbering: the labels ("2.3.1", "a)", "IV.") Word draws in front of numbered paragraphs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docshelf.parsers import numerals

if TYPE_CHECKING:
    from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
LEVELS = 9
_PLACEHOLDER = re.compile(r"%([1-9])")
_CJK_DIGITS = "〇一二三四五六七八九"


def w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


def w_val(element: etree._Element | None, attribute: str = "val") -> str | None:
    if element is None:
        return None
    value = element.get(w(attribute))
    return None if value is None else str(value)


def flag(element: etree._Element | None) -> bool:
    """An on/off property: present and not switched off by w:val 0/false/off."""
    return element is not None and (w_val(element) or "true").lower() not in ("0", "false", "off")


def int_val(element: etree._Element | None, default: int | None = None) -> int | None:
    value = w_val(element)
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


@dataclass(frozen=True, slots=True)
class Level:
    start: int = 1
    num_fmt: str = "decimal"
    text: str = "%1."
    restart_after: int | None = None  # w:lvlRestart, 1-based; None = restart after any higher level
    legal: bool = False


@dataclass(slots=True)
class _Counters:
    values: list[int | None] = field(default_factory=lambda: [None] * LEVELS)


def _parse_level(element: etree._Element) -> Level:
    return Level(
        start=int_val(element.find(w("start")), 1) or 0,
        num_fmt=w_val(element.find(w("numFmt"))) or "decimal",
        text=w_val(element.find(w("lvlText"))) or "",
        restart_after=int_val(element.find(w("lvlRestart"))),
        legal=element.find(w("isLgl")) is not None,
    )


def _levels(parent: etree._Element) -> dict[int, Level]:
    levels: dict[int, Level] = {}
    for lvl in parent.findall(w("lvl")):
        ilvl = _ilvl(lvl)
        if ilvl is not None:
            levels[ilvl] = _parse_level(lvl)
    return levels


def _ilvl(lvl: etree._Element) -> int | None:
    value = lvl.get(w("ilvl"))
    return int(value) if value is not None and value.isdigit() and int(value) < LEVELS else None


class Numbering:
    """Replays Word's list counters paragraph by paragraph, in document order."""

    def __init__(self, root: etree._Element | None) -> None:
        self._abstract: dict[str, dict[int, Level]] = {}
        self._num_abstract: dict[str, str] = {}
        self._num_levels: dict[str, dict[int, Level]] = {}
        self._num_starts: dict[str, dict[int, int]] = {}
        self._counters: dict[str, _Counters] = {}
        self._started_nums: set[str] = set()
        if root is not None:
            self._load(root)

    @classmethod
    def of(
        cls,
        abstract: dict[str, dict[int, Level]],
        nums: dict[str, str],
        *,
        starts: dict[str, dict[int, int]] | None = None,
        levels: dict[str, dict[int, Level]] | None = None,
    ) -> Numbering:
        """Numbering from definitions read elsewhere (a Word binary file's lists): abstract definitions by id,
        each num's abstract id, and each num's start and level overrides."""
        numbering = cls(None)
        numbering._abstract, numbering._num_abstract = abstract, nums
        numbering._num_starts, numbering._num_levels = starts or {}, levels or {}
        return numbering

    def _load(self, root: etree._Element) -> None:
        for abstract in root.findall(w("abstractNum")):
            abstract_id = abstract.get(w("abstractNumId"))
            if abstract_id is not None:
                self._abstract[abstract_id] = _levels(abstract)
        for num in root.findall(w("num")):
            num_id = num.get(w("numId"))
            abstract_id = w_val(num.find(w("abstractNumId")))
            if num_id is None or abstract_id is None:
                continue
            self._num_abstract[num_id] = abstract_id
            for override in num.findall(w("lvlOverride")):
                ilvl = _ilvl(override)
                if ilvl is None:
                    continue
                start = int_val(override.find(w("startOverride")))
                if start is not None:
                    self._num_starts.setdefault(num_id, {})[ilvl] = start
                lvl = override.find(w("lvl"))
                if lvl is not None:
                    self._num_levels.setdefault(num_id, {})[ilvl] = _parse_level(lvl)

    def level(self, num_id: str, ilvl: int) -> Level | None:
        override = self._num_levels.get(num_id, {}).get(ilvl)
        if override is not None:
            return override
        abstract_id = self._num_abstract.get(num_id)
        return None if abstract_id is None else self._abstract.get(abstract_id, {}).get(ilvl)

    def next_label(self, num_id: str, ilvl: int) -> str:
        """Advance the counters for this paragraph and return its label ('' for bullets and unknown lists)."""
        abstract_id = self._num_abstract.get(num_id)
        level = self.level(num_id, ilvl)
        if abstract_id is None or level is None:
            return ""
        counters = self._counters.setdefault(abstract_id, _Counters()).values
        if num_id not in self._started_nums:
            self._started_nums.add(num_id)
            for override_level, start in self._num_starts.get(num_id, {}).items():
                counters[override_level] = start - 1
        current = counters[ilvl]
        counters[ilvl] = level.start if current is None else current + 1
        for deeper in range(ilvl + 1, LEVELS):
            deeper_level = self.level(num_id, deeper)
            restart_after = deeper_level.restart_after if deeper_level else None
            if restart_after is None or 0 < ilvl + 1 <= restart_after:
                counters[deeper] = None
        for higher in range(ilvl):
            # Word shows a skipped level at its start value and then counts on from there.
            if counters[higher] is None:
                higher_level = self.level(num_id, higher)
                counters[higher] = higher_level.start if higher_level else 1
        if level.num_fmt in ("bullet", "none"):
            return ""
        return self._render(num_id, level, counters)

    def _render(self, num_id: str, level: Level, counters: list[int | None]) -> str:
        def replace(match: re.Match[str]) -> str:
            index = int(match.group(1)) - 1
            source = self.level(num_id, index)
            value = counters[index] or 0
            fmt = "decimal" if level.legal or source is None else source.num_fmt
            return format_number(value, fmt)

        return _PLACEHOLDER.sub(replace, level.text).strip()


def format_number(value: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        letter = _letters(value)
        return letter if fmt == "lowerLetter" else letter.upper()
    if fmt in ("lowerRoman", "upperRoman"):
        roman = numerals.roman(value)
        return roman if fmt == "upperRoman" else roman.lower()
    if fmt.startswith(("chinese", "ideograph", "japanese", "taiwanese")) and 0 < value < 100:
        return _cjk_number(value)
    if fmt == "decimalZero":
        return f"{value:02d}"
    return str(value)


def _letters(value: int) -> str:
    # Word repeats the letter: a..z, aa..zz, aaa..
    if value <= 0:
        return str(value)
    return chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)


def _cjk_number(value: int) -> str:
    tens, units = divmod(value, 10)
    if tens == 0:
        return _CJK_DIGITS[units]
    prefix = "" if tens == 1 else _CJK_DIGITS[tens]
    return prefix + "十" + (_CJK_DIGITS[units] if units else "")
