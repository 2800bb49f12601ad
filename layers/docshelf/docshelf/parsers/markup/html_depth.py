"""Flattening of hostile HTML nesting, for documents libxml2 refuses to build deeper than 256 levels.

libxml2 stops building the tree at its depth limit and drops everything below it, so a page wrapped in
thousands of <div>s would come out empty. `flatten_nesting` removes the tags of elements opened below
`max_depth` (keeping their text; block tags become line breaks) in one linear pass over the tags: each
element is pushed and popped once.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)(?:\s[^<>]*)?(/?)>")
VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)
_BREAKING_TAGS = frozenset(
    {"br", "p", "div", "section", "article", "blockquote", "li", "tr", "td", "th", "table", "ul", "ol", "pre"}
    | {f"h{n}" for n in range(1, 7)}
)
# A table kept just above the cut would hold its text outside any cell, where table readers do not look.
_TABLE_ROOM = 4
DEPTH_ERROR = "Excessive depth"


def flatten_nesting(text: str, max_depth: int) -> str:
    """`text` with the tags of elements nested deeper than `max_depth` removed; their text is kept."""
    open_tags: list[tuple[str, bool]] = []  # (name, kept) of each open element, outermost first
    open_counts: dict[str, int] = {}
    run = {"end": -1, "broke": False}  # the run of adjacent dropped tags: one break stands for all of it

    def dropped(match: re.Match[str], name: str) -> str:
        if match.start() != run["end"]:
            run["broke"] = False
        run["end"] = match.end()
        if run["broke"] or name not in _BREAKING_TAGS:
            return ""
        run["broke"] = True
        return "<br>"

    def replace(match: re.Match[str]) -> str:
        closing, name, self_closing = match.group(1), match.group(2).lower(), match.group(3)
        if name in VOID_TAGS or self_closing:
            return match.group(0) if not open_tags or open_tags[-1][1] else dropped(match, name)
        if not closing:
            limit = max_depth - _TABLE_ROOM if name == "table" else max_depth
            kept = len(open_tags) < limit and (not open_tags or open_tags[-1][1])
            open_tags.append((name, kept))
            open_counts[name] = open_counts.get(name, 0) + 1
            return match.group(0) if kept else dropped(match, name)
        if not open_counts.get(name):
            return ""
        while True:  # an end tag closes every element opened after its own, like the HTML parser does
            top, kept = open_tags.pop()
            open_counts[top] -= 1
            if top == name:
                return match.group(0) if kept else dropped(match, name)

    return _TAG.sub(replace, text)
