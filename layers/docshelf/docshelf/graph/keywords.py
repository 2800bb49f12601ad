"""Each node's keywords: the analyzer's terms of its text, weighted across the namespace and the document.

A term's weight in a chunk is (1 + log tf) x its idf among the namespace's chunks (the BM25 idf both engines use,
`bm25_math.okapi_idf`) x its idf among the document's own chunks, log(1 + M / m): a word every manual of the
namespace uses is no keyword, and neither is the topic word every chunk of this document holds, which would join
every chunk to every other. Single characters (a lone CJK character beside its bigrams, a letter) are left out.
A section's keywords are the heaviest of the summed weights of the chunks under it (each chunk's heaviest terms).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import chain, compress, repeat
from operator import mul

from docshelf.index.bm25_math import okapi_idf

KEYWORDS_PER_NODE = 8
MAX_SECTION_KEYWORDS = 4 * KEYWORDS_PER_NODE
CANDIDATES_PER_CHUNK = 2 * KEYWORDS_PER_NODE  # a chunk's terms that count towards its sections' keywords


def heaviest_terms(
    frequencies: Sequence[Mapping[str, int]], namespace_chunks: int, namespace_holding: Mapping[str, int]
) -> list[list[tuple[str, float]]]:
    """Per chunk (its content-term frequencies, in the document's order): its `CANDIDATES_PER_CHUNK` heaviest terms
    with their weights, heaviest first (a tie: the later term in the alphabet first, so the same chunk always gets
    the same keywords). `namespace_holding`: how many of the namespace's `namespace_chunks` chunks hold each term (a
    term it lacks is taken to be held by this document's chunks alone)."""
    in_document = Counter(chain.from_iterable(frequencies))
    chunks = len(frequencies)
    total = max(namespace_chunks, chunks)
    document_idf = [0.0, *(math.log(1.0 + chunks / holding) for holding in range(1, chunks + 1))]
    # Through map() over C functions and a remembered idf: a document's terms are weighed without a Python call
    # each (a term the namespace lacks is held by this document's chunks alone).
    terms, holdings = list(in_document.keys()), list(in_document.values())
    held = map(max, map(namespace_holding.get, terms, repeat(0)), holdings)
    weights = map(mul, map(_namespace_idf, repeat(total), held), map(document_idf.__getitem__, holdings))
    factor = dict(zip(terms, weights, strict=True))
    factor.update(dict.fromkeys(compress(terms, map((2).__gt__, map(len, terms))), 0.0))  # single characters
    damped = [
        0.0,
        *(1.0 + math.log(tf) for tf in range(1, max((max(c.values(), default=0) for c in frequencies), default=0) + 1)),
    ]
    found = []
    for counts in frequencies:
        # map() over C functions: a document's term occurrences are weighed without a Python call each
        chunk_weights = list(map(mul, map(factor.__getitem__, counts.keys()), map(damped.__getitem__, counts.values())))
        pairs: Iterable[tuple[float, str]] = zip(chunk_weights, counts.keys(), strict=True)
        if len(chunk_weights) > CANDIDATES_PER_CHUNK:
            # Only pairs at least as heavy as the CANDIDATES_PER_CHUNK-th weight can be among the heaviest (ties
            # at it all kept): sorting the bare floats first is cheaper than sorting every (weight, term) pair.
            cut = sorted(chunk_weights, reverse=True)[CANDIDATES_PER_CHUNK - 1]
            pairs = compress(pairs, map(cut.__le__, chunk_weights))
        top = sorted(pairs, reverse=True)[:CANDIDATES_PER_CHUNK]  # C, unlike nlargest
        found.append([(term, weight) for weight, term in top if weight > 0])
    return found


@lru_cache(maxsize=65_536)
def _namespace_idf(chunks: int, holding: int) -> float:
    return okapi_idf(chunks, holding)


def top_keywords(weights: Mapping[str, float], k: int = KEYWORDS_PER_NODE) -> list[str]:
    """The `k` heaviest terms (a tie: the later term in the alphabet first)."""
    return [term for weight, term in heapq.nlargest(k, ((weight, term) for term, weight in weights.items()))]


def section_keyword_count(chunks: int) -> int:
    """A section says more than one chunk: `KEYWORDS_PER_NODE` per chunk under it, up to `MAX_SECTION_KEYWORDS`, so
    a chunk elsewhere whose keywords lie (nearly) all within a section's is joined to it (the overlap is over the
    smaller set)."""
    return min(MAX_SECTION_KEYWORDS, KEYWORDS_PER_NODE * max(1, chunks))


def section_weights(terms: Sequence[Sequence[tuple[str, float]]]) -> dict[str, float]:
    """A section's term weights: the sums of its chunks' heaviest terms' weights."""
    total: dict[str, float] = {}
    for chunk_terms in terms:
        for term, weight in chunk_terms:
            total[term] = total.get(term, 0.0) + weight
    return total
