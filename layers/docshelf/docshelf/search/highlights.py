"""Where a query matched a result's text: character offsets computed by the index's own analyzer.

A span marks a token of the text whose analyzed terms meet the query's: a stem (`replacement` for the query word
`replacing`), a whole identifier or one of its parts (`TX-100`, `tx100`), a CJK bigram of the query (a lone
query character matches that character). Offsets are Python string indices (Unicode code points) into the
text as stored, so NFKC and case folding, which the analyzer applies first, never shift them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# The analyzer's own tokenizer: a highlight is a token the index matched, so it must cut the text as the index did.
from docshelf.index.analyzer import (
    _CONTENT_TERMS,
    _PARTS,
    _PIECE_RAW_TERMS,
    _kind,
    _tokens,
    normalize,
    piece_content_terms,
    raw_terms,
)

Span = tuple[int, int]
_NON_SPACE = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """The terms a highlight looks for: content terms (CJK as bigrams only) and surface forms."""

    content: frozenset[str]
    surface: frozenset[str]


def highlight_terms(query: str, corrections: Mapping[str, str] | None = None) -> QueryTerms:
    """The query's terms; with `corrections` (misspelt term -> indexed term) the corrected terms too."""
    content: set[str] = set()
    for piece in normalize(query).split():
        for token in _tokens(piece):
            if _kind(token) == "cjk":
                content.update([token] if len(token) == 1 else (token[i : i + 2] for i in range(len(token) - 1)))
            else:
                content.update(_CONTENT_TERMS[token])
    content.update((corrections or {}).values())
    surface = {term for term in raw_terms(query) if not term.startswith("#")}
    return QueryTerms(frozenset(content), frozenset(surface))


def highlights(terms: QueryTerms, text: str) -> list[list[int]]:
    """Sorted, non-overlapping [start, end) spans of `text` where the query matched."""
    spans: list[Span] = []
    # Most pieces match nothing: find the distinct ones that may, so the loop below is a set look-up a piece.
    hits = {piece for piece in set(normalize(text).split()) if _may_match(terms, piece)}
    if not hits:
        return []
    for match in _NON_SPACE.finditer(text):
        piece = match.group()
        if piece.isascii() and piece.lower() not in hits:
            continue
        spans.extend((match.start() + s, match.start() + e) for s, e in _piece_spans(terms, piece))
    return [list(span) for span in _merged(spans)]


def _piece_spans(terms: QueryTerms, piece: str) -> Iterable[Span]:
    """Spans of one whitespace-free piece of the original text, mapped back from its normalized form."""
    normalized = normalize(piece)
    if not any(_may_match(terms, sub) for sub in normalized.split()):
        return
    # Text NFKC leaves alone whose case folding keeps its length folds character for character: offsets stay put.
    unmoved = len(normalized) == len(piece) and unicodedata.is_normalized("NFKC", piece)
    owner = [(index, index + 1) for index in range(len(piece))] if unmoved else _owners(piece, normalized)
    for sub in _NON_SPACE.finditer(normalized):
        for start, end in _normalized_spans(terms, sub.group()):
            start, end = start + sub.start(), end + sub.start()
            if owner is None:  # normalization did not go character by character: mark the whole piece
                yield 0, len(piece)
                return
            yield owner[start][0], owner[end - 1][1]


def _may_match(terms: QueryTerms, piece: str) -> bool:
    """Whether any term of a normalized piece is the query's: most pieces are not, and their terms are cached."""
    return not terms.content.isdisjoint(piece_content_terms(piece)) or not terms.surface.isdisjoint(
        _PIECE_RAW_TERMS[piece]
    )


def _owners(piece: str, normalized: str) -> list[Span] | None:
    """For each character of `normalized`, the span of original characters it came from: a base character with the
    marks that compose with it (ｶﾞ is ガ, e and U+0301 are é); None when the piece does not normalize cluster by
    cluster."""
    owner: list[Span] = []
    joined: list[str] = []
    start = 0
    for end in range(1, len(piece) + 1):
        if end < len(piece) and _composes_with_previous(piece[end]):
            continue
        folded = normalize(piece[start:end])
        owner.extend([(start, end)] * len(folded))
        joined.append(folded)
        start = end
    return owner if "".join(joined) == normalized else None


def _composes_with_previous(char: str) -> bool:
    """A combining mark, a half-width (sem)voiced sound mark, or a hangul jamo vowel or final consonant."""
    return unicodedata.combining(char) != 0 or char in "\uff9e\uff9f" or "\u1160" <= char <= "\u11ff"


def _normalized_spans(terms: QueryTerms, piece: str) -> Iterable[Span]:
    cursor = 0
    for token in _tokens(piece):
        start = piece.index(token, cursor)
        cursor = start + len(token)
        for s, e in _token_spans(terms, token):
            yield start + s, start + e


def _token_spans(terms: QueryTerms, token: str) -> Iterable[Span]:
    kind = _kind(token)
    if kind == "cjk":
        for i in range(len(token)):
            if token[i : i + 2] in terms.content and i + 1 < len(token):
                yield i, i + 2
            if token[i] in terms.content:
                yield i, i + 1
        return
    collapsed = "".join(_PARTS.findall(token))
    if token in terms.surface or collapsed in terms.surface or (kind == "word" and _meets(terms, token)):
        yield 0, len(token)
        return
    if token in terms.content:
        yield 0, len(token)
        return
    if kind != "word":
        for part in _PARTS.finditer(token):
            if _meets(terms, part.group()):
                yield part.start(), part.end()


def _meets(terms: QueryTerms, word: str) -> bool:
    return any(term in terms.content for term in piece_content_terms(word))


def _merged(spans: list[Span]) -> list[Span]:
    """Overlapping or touching spans (a CJK run's bigrams) as one."""
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
