"""A query none of whose terms any chunk holds: its misspelt terms replaced by the closest terms the namespace holds.

A typo ("parliment") would otherwise end in no results. Only then are terms corrected, and only those whose typed
word is no word of the language (search/vocabulary.py: "leave" is never turned into the indexed "leak"). Measured
on XQuAD, correcting every absent term of queries that did match something fixed as many questions as it broke
(kind -> king, minimum -> maximum). The rules are
Lucene's fuzzy defaults, so that OpenSearch's term suggester and the embedded index find the same candidates:
words of 4 letters or more, the first letter kept, 1 edit up to 5 letters and 2 beyond (optimal string alignment,
an adjacent swap counting one). The closest candidate wins, then the one more chunks hold, then the first in
alphabetical order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from docshelf.edit_distance import edit_distance
from docshelf.index.analyzer import _CONTENT_TERMS, _tokens, normalize
from docshelf.index.plan import SpellingRule
from docshelf.search.vocabulary import is_known_word

MIN_LENGTH = 4
PREFIX = 1
MAX_EDITS = 2  # what an engine proposes; `max_edits` narrows it for short words
SUGGESTIONS = 50  # per term: every candidate within two edits in practice; `closest` picks by its own rules
SPELLING_RULE = SpellingRule(MAX_EDITS, PREFIX, SUGGESTIONS)
CJK_START = 0x2E80  # CJK, kana and hangul are analyzed into bigrams, which no edit distance relates


def correctable(term: str) -> bool:
    """A word of letters from an alphabet (Latin, Greek, Cyrillic, ...), long enough to correct."""
    return len(term) >= MIN_LENGTH and term.isalpha() and all(ord(ch) < CJK_START for ch in term)


def max_edits(term: str) -> int:
    return 1 if len(term) <= 5 else 2


def closest(term: str, candidates: Iterable[tuple[str, int]]) -> str | None:
    """The candidate (term, chunks holding it) that replaces `term`, or None."""
    limit = max_edits(term)
    best: tuple[int, int, str] | None = None
    for candidate, chunks in candidates:
        if candidate == term or candidate[:PREFIX] != term[:PREFIX]:
            continue
        distance = edit_distance(term, candidate, limit)
        if distance <= limit and (best is None or (distance, -chunks, candidate) < best):
            best = (distance, -chunks, candidate)
    return best[2] if best else None


def corrections(terms: Sequence[str], candidates: Mapping[str, Sequence[tuple[str, int]]]) -> dict[str, str]:
    """Each correctable term with the term that replaces it (terms without a close candidate are left out)."""
    chosen = {term: closest(term, candidates.get(term, ())) for term in dict.fromkeys(terms) if correctable(term)}
    return {term: replacement for term, replacement in chosen.items() if replacement is not None}


def typed_words(query: str) -> dict[str, str]:
    """Each content term of the query with the word typed for it (normalised), the first one when several give it:
    corrections are decided and shown by the words typed, not by their stems (`leave`, not `leav`)."""
    typed: dict[str, str] = {}
    for piece in normalize(query).split():
        for token in _tokens(piece):
            for term in _CONTENT_TERMS[token]:
                typed.setdefault(term, token)
    return typed


def misspelt(terms: Sequence[str], typed: Mapping[str, str]) -> list[str]:
    """The terms whose typed word is not a word of the language (nor its stem): the only ones to correct."""
    return [term for term in terms if correctable(term) and not is_known_word(typed.get(term, term))]
