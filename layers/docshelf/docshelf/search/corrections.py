"""A query none of whose terms any chunk holds: its misspelt terms replaced by the closest terms the namespace holds.

A typo ("parliment") or a form the stemmer does not join ("septicemia" beside "septicemic") would otherwise end
in no results. Only then are terms corrected: measured on XQuAD, correcting every absent term of queries that
did match something fixed as many questions as it broke (kind -> king, minimum -> maximum). The rules are
Lucene's fuzzy defaults, so that OpenSearch's term suggester and the embedded index find the same candidates:
words of 4 letters or more, the first letter kept, 1 edit up to 5 letters and 2 beyond (optimal string alignment,
an adjacent swap counting one). The closest candidate wins, then the one more chunks hold, then the first in
alphabetical order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

MIN_LENGTH = 4
PREFIX = 1
MAX_EDITS = 2  # what a backend proposes; `max_edits` narrows it for short words
CJK_START = 0x2E80  # CJK, kana and hangul are analysed into bigrams, which no edit distance relates


def correctable(term: str) -> bool:
    """A word of letters from an alphabet (Latin, Greek, Cyrillic, ...), long enough to correct."""
    return len(term) >= MIN_LENGTH and term.isalpha() and all(ord(ch) < CJK_START for ch in term)


def max_edits(term: str) -> int:
    return 1 if len(term) <= 5 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insert, delete, substitute, swap two adjacent letters), or limit + 1 once
    it exceeds `limit`."""
    # An edit changes the length by one at most, and the set of letters by two (a swap by none).
    if abs(len(a) - len(b)) > limit or len(set(a).symmetric_difference(b)) > 2 * limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


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
