"""Why a search found nothing, and the least budget that holds evidence at all: a search never answers an empty list
or a cut citation header without saying why.

`empty_reason` is one of EMPTY_REASONS ("" when there are results); `check_budget` refuses a `max_tokens` too small
for the first result's citation header and one token of its text, naming that minimum."""

from __future__ import annotations

from docshelf.citations import evidence_header
from docshelf.errors import InvalidQueryError
from docshelf.index.base import SearchBackend
from docshelf.index.plan import SearchFilters
from docshelf.model import Chunk

EMPTY_REASONS: dict[str, str] = {
    "only_stop_words": "the query holds only common words (stop words and question words), which are not indexed",
    "empty_namespace": "the namespace holds no chunks",
    "all_filtered": "the filters allow none of the namespace's chunks",
    "no_match": "no chunk holds any word of the query, and no close spelling of one",
    "below_min_score": "chunks matched, but none with a confidence of at least min_score",
}


def empty_reason(index: SearchBackend, namespace: str, filters: SearchFilters, *, has_terms: bool, allowed: int) -> str:
    """Why a search of `namespace` returned nothing: `has_terms` whether the query kept any term, `allowed` how many
    chunks the filters allow."""
    if allowed == 0:
        if filters.is_empty() or index.count(namespace, SearchFilters()) == 0:
            return "empty_namespace"
        return "all_filtered"
    return "no_match" if has_terms else "only_stop_words"


def header_tokens(chunk: Chunk) -> int:
    """Tokens of the chunk's header as the first block of an evidence text."""
    from docshelf.tokens import count_tokens

    return count_tokens(evidence_header(1, chunk))


def check_budget(first: Chunk, max_tokens: int, *, field: str = "max_tokens") -> None:
    """Raise InvalidQueryError when `max_tokens` cannot hold the first result's header and a token of its text."""
    minimum = header_tokens(first) + 1
    if max_tokens < minimum:
        raise InvalidQueryError(
            f"{field} {max_tokens} cannot hold one citation header and its text: give at least {minimum}"
        )
