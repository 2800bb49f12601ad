"""A chunk's text as sentences with their character spans, and the query terms each holds."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

from docshelf.index.analyzer import analyze
from docshelf.search.abbreviations import NO_ALIASES, Aliases, aliased

# A sentence ends after . ! ? followed by white space (so "3.5" and "e.g.x" stay whole), after 。！？ (Chinese and
# Japanese put no space after them), and at every line break (headings, list items and table rows are lines). The
# boundary is the named group; matching the mark itself, not looking behind for it, halves the scan, and so does the
# look-ahead for any of the marks before the alternatives are tried.
_BOUNDARY = re.compile(r"(?=[.!?。！？\n])(?:[.!?](?P<closing>[\"')\]]*\s+)|[。！？](?P<cjk>)|(?P<lines>\n+))")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, surrounding white space left out, in reading order."""
    spans = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        begin, end = match.span(match.lastgroup or 0)  # every alternative has a named group
        spans.append((start, begin if text[begin:end].isspace() else end))
        start = end
    spans.append((start, len(text)))
    return [trimmed for span in spans if (trimmed := _trim(text, span))[0] < trimmed[1]]


def _trim(text: str, span: tuple[int, int]) -> tuple[int, int]:
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


@lru_cache(maxsize=1024)
def analyzed_sentences(text: str) -> tuple[tuple[tuple[int, int], ...], tuple[frozenset[str], ...]]:
    """The sentence spans of `text` and each sentence's content terms (as the index analyzes content), kept for
    the texts searched last: confidence and packing read the same results, and popular chunks come back."""
    spans = tuple(sentence_spans(text))
    return spans, tuple(frozenset(analyze(text[start:end])) for start, end in spans)


def matched_terms(text: str, wanted: Collection[str], aliases: Aliases = NO_ALIASES) -> list[frozenset[str]]:
    """Per sentence of `text`, the terms of `wanted` it holds, a short form of `aliases` standing for its long
    form's terms."""
    wanted_set = wanted if isinstance(wanted, (set, frozenset)) else set(wanted)
    sentences = analyzed_sentences(text)[1]
    if not aliases:
        return [terms & wanted_set for terms in sentences]
    return [aliased(terms & wanted_set, terms, aliases, wanted_set) for terms in sentences]


def held_terms(text: str, wanted: Collection[str]) -> set[str]:
    """The terms of `wanted` that `text` holds anywhere."""
    wanted_set = wanted if isinstance(wanted, (set, frozenset)) else set(wanted)
    return {term for terms in analyzed_sentences(text)[1] for term in terms & wanted_set}
