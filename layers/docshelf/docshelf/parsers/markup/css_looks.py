"""Bold and size as CSS declares them, in a `style` attribute or in a page's style sheets by element type and class
(`.c1{font-weight:700;font-size:14pt}`, as Google Docs exports and e-book converters write them), for headings
typed by formatting. Only simple selectors are read (`p`, `.c1`, `p.c1`): the others would need the element's
ancestors, and sheets that type headings by formatting use classes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import tinycss2
from tinycss2.ast import (
    AtRule,
    Declaration,
    DimensionToken,
    IdentToken,
    LiteralToken,
    Node,
    NumberToken,
    PercentageToken,
    QualifiedRule,
)

# A size as declared: (number, unit), unit one of pt px em rem %.
Size = tuple[float, str]
# What a rule or a style attribute declares: bold or not, and the size, each None when it says nothing.
Declared = tuple[bool | None, Size | None]
# A rule for an element type or a class: ((specificity, order), the element type it needs or "", what it says)
Rule = tuple[tuple[int, int], str, Declared]

MAX_SHEET_CHARS = 256_000  # of a page's style sheets, read in all (the rest is ignored): about 0.25 s at most
MAX_RULES_PER_SELECTOR = 16  # the latest kept: what an element matches is sorted for each element
MAX_MATCHED = 10_000  # elements' (type, classes) whose matching rules are remembered
_UNITS = frozenset({"pt", "px", "em", "rem"})
# CSS absolute size keywords as browsers render them, in points (medium: 16 px).
_KEYWORD_SIZES = {
    "xx-small": 6.75, "x-small": 7.5, "small": 9.75, "medium": 12.0,
    "large": 13.5, "x-large": 18.0, "xx-large": 24.0, "xxx-large": 36.0,
}  # fmt: skip
_RELATIVE_KEYWORDS = {"larger": 120.0, "smaller": 83.0}
_BOLD_WORDS = frozenset({"bold", "bolder"})
_NOT_BOLD_WORDS = frozenset({"normal", "lighter"})
_TYPE = re.compile(r"[a-z][a-z0-9-]*")
_CLASS = re.compile(r"([a-z][a-z0-9-]*)?\.(-?[_a-zA-Z][\w-]*)")


@lru_cache(maxsize=4096)
def style_declared(style: str) -> Declared:
    """`declared` of a `style` attribute: a word processor's page repeats a few of them thousands of times."""
    return declared(style)


def declared(declarations: str | Iterable[Node]) -> Declared:
    """The bold and size that a declaration list (`font-weight:bold; font-size:14pt`, or its parsed content)
    sets; the last declaration of each wins, `font` included."""
    bold: bool | None = None
    size: Size | None = None
    for item in tinycss2.parse_blocks_contents(declarations, skip_comments=True, skip_whitespace=True):
        if not isinstance(item, Declaration):
            continue
        values = [token for token in item.value if token.type not in ("whitespace", "comment")]
        if item.lower_name == "font-weight" and values:
            bold = weight if (weight := _weight(values[0])) is not None else bold
        elif item.lower_name == "font-size" and values:
            size = _size(values[0]) or size
        elif item.lower_name == "font":
            bold, size = _shorthand(values, bold, size)
    return bold, size


def _weight(token: Node) -> bool | None:
    if isinstance(token, IdentToken):
        word = token.lower_value
        return True if word in _BOLD_WORDS else False if word in _NOT_BOLD_WORDS else None
    if isinstance(token, NumberToken):
        return float(token.value) >= 600
    return None


def _size(token: Node) -> Size | None:
    if isinstance(token, DimensionToken) and token.lower_unit in _UNITS and token.value > 0:
        return float(token.value), token.lower_unit
    if isinstance(token, PercentageToken) and token.value > 0:
        return float(token.value), "%"
    if isinstance(token, IdentToken):
        word = token.lower_value
        if word in _KEYWORD_SIZES:
            return _KEYWORD_SIZES[word], "pt"
        if word in _RELATIVE_KEYWORDS:
            return _RELATIVE_KEYWORDS[word], "%"
    return None


def _shorthand(values: list[Node], bold: bool | None, size: Size | None) -> Declared:
    """`font: [style] [weight] size[/line-height] family`: the shorthand resets the weight to normal."""
    weight: bool | None = False
    for token in values:
        if isinstance(token, LiteralToken) and token.value == "/":
            break
        if (found := _size(token)) is not None:
            return weight, found
        weight = said if (said := _weight(token)) is not None else weight
    return bold, size  # no size: not a valid shorthand, ignored as browsers ignore it


def size_in_points(size: Size, outer: float, root: float) -> float:
    """A declared size in points, inside text of `outer` points on a page whose root text is `root` points."""
    number, unit = size
    if unit == "pt":
        return number
    if unit == "px":
        return round(number * 0.75, 1)
    if unit == "%":
        return round(outer * number / 100, 1)
    return round((outer if unit == "em" else root) * number, 1)


@dataclass
class ClassStyles:
    """A page's rules for element types (`p`) and classes (`.c1`, `p.c1`), by the type or class they name."""

    by_type: dict[str, list[Rule]] = field(default_factory=dict)
    by_class: dict[str, list[Rule]] = field(default_factory=dict)
    _rules: int = 0
    _matched: dict[tuple[str, str], list[Declared]] = field(default_factory=dict)  # by (element type, classes)

    def read(self, sheet: str) -> None:
        """Add a style sheet's rules after those read before it (later rules win at equal specificity)."""
        self._rules_of(tinycss2.parse_stylesheet(sheet, skip_comments=True, skip_whitespace=True))

    def _rules_of(self, rules: Iterable[Node]) -> None:
        for rule in rules:
            if isinstance(rule, AtRule) and rule.lower_at_keyword in ("media", "supports") and rule.content:
                self._rules_of(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True))
            if not isinstance(rule, QualifiedRule):
                continue
            says = declared(rule.content)
            if says == (None, None):
                continue
            self._rules += 1
            for selector in tinycss2.serialize(rule.prelude).split(","):
                self._add(selector.strip(), says)

    def _add(self, selector: str, says: Declared) -> None:
        if _TYPE.fullmatch(selector.lower()):
            rules = self.by_type.setdefault(selector.lower(), [])
            rules.append(((1, self._rules), selector.lower(), says))
        elif (simple := _CLASS.fullmatch(selector)) is not None:
            tag, name = (simple.group(1) or "").lower(), simple.group(2)
            rules = self.by_class.setdefault(name, [])
            rules.append(((11 if tag else 10, self._rules), tag, says))
        else:
            return
        if len(rules) > MAX_RULES_PER_SELECTOR:
            del rules[0]

    def __bool__(self) -> bool:
        return bool(self.by_type or self.by_class)

    def matching(self, name: str, classes: str) -> list[Declared]:
        """What the rules matching an element say, the weakest first (by specificity, then by order)."""
        said = self._matched.get((name, classes))
        if said is None:
            found = list(self.by_type.get(name, ()))
            for class_name in classes.split():
                found += [rule for rule in self.by_class.get(class_name, ()) if rule[1] in ("", name)]
            said = [says for _, _, says in sorted(found, key=lambda rule: rule[0])]
            if len(self._matched) < MAX_MATCHED:
                self._matched[(name, classes)] = said
        return said
