"""Which of a document's chunks answers best: sibling chunks ordered by their best passage.

Chunks of one document share its vocabulary, so their chunk-level BM25 scores are often close, and the
winner is decided by terms scattered over the whole chunk. A question is usually answered where its terms
meet: a few consecutive sentences (Callan 1994; Kaszkiel & Zobel 1997 on passage evidence, best combined
with the whole-text score). So among the results of one document, each chunk is scored by its content
(chunk BM25) score plus its best window of `WINDOW_SENTENCES` sentences (BM25 with the index's idf and no
length normalisation, windows being of like size), each relative to the best of the document's results; the
document's chunks then take its positions in that order. Which positions a document holds is left to the
fused ranking, so the ranking of documents does not change.

In the passage score a query term also weighs its idf among the siblings (Lucene's form, log(1 + (S - n + 0.5) /
(n + 0.5)) for a term in n of S sibling chunks): the document's topic terms are in all of them, and how often a
chunk repeats the topic tells little about where the question is answered (an article's opening chunk names
its subject most). The index's idf alone ranks those terms highest, since the collection holds few chunks on
that subject.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from itertools import chain
from math import log

from docshelf.index.analyzer import text_terms
from docshelf.model import Chunk
from docshelf.search.abbreviations import NO_ALIASES, Aliases

WINDOW_SENTENCES = 3
# Term frequency saturates as in BM25 with k1 = 1.5 (the engines' value); a window has no length normalisation.
TF_SATURATION = 1.5


def sentence_terms(text: str, wanted: Collection[str], aliases: Aliases = NO_ALIASES) -> list[list[str]]:
    """Per sentence (`analyzer.text_terms`': ending with a piece that ends in . ! ? or 。), its content terms that
    are in `wanted`, in reading order, a short form of `aliases` standing for its long form's terms."""
    terms, bounds = text_terms(text)
    found: list[tuple[int, str]] = []
    for term in set(wanted):
        at = -1
        try:
            while True:  # tuple.index scans in C: a few calls a term, where a loop would visit every term
                at = terms.index(term, at + 1)
                found.append((at, term))
        except ValueError:
            pass
    for short, long in aliases.items():
        at = -1
        try:
            while True:
                at = terms.index(short, at + 1)
                found.extend((at, term) for term in long if term in wanted)
        except ValueError:
            pass
    found.sort()
    sentences: list[list[str]] = [[] for _ in range(len(bounds) + 1)]
    for at, term in found:
        sentences[bisect_right(bounds, at)].append(term)
    return sentences


def best_window_score(
    sentences: Sequence[Sequence[str]], weights: Mapping[str, float], window: int = WINDOW_SENTENCES
) -> float:
    """The best BM25 score (tf saturated, no length normalisation) of `window` consecutive sentences, given
    as a text's `sentence_terms`."""
    best = 0.0
    last = max(0, len(sentences) - window)
    for start in range(last + 1):
        if start < last and not sentences[start]:  # the next window holds all this one's terms
            continue
        counts = Counter(chain.from_iterable(sentences[start : start + window]))
        score = sum(weights[term] * tf * (TF_SATURATION + 1) / (tf + TF_SATURATION) for term, tf in counts.items())
        best = max(best, score)
    return best


def sibling_weights(weights: Mapping[str, float], sibling_terms: Sequence[set[str]]) -> dict[str, float]:
    """`weights` times each term's idf among sibling chunks holding `sibling_terms` (Lucene's form, so a term in
    every sibling keeps a little weight); terms no sibling holds are left out."""
    siblings = len(sibling_terms)
    local = {}
    for term, weight in weights.items():
        holding = sum(term in terms for terms in sibling_terms)
        if holding:
            local[term] = weight * log(1 + (siblings - holding + 0.5) / (holding + 0.5))
    return local


def siblings_by_passage(
    ranked: Sequence[tuple[str, float]],
    chunks: Mapping[str, Chunk],
    weights: Mapping[str, float],
) -> list[tuple[str, float]]:
    """`ranked` (chunk id, score; best first) with each document's chunks reordered among the document's own
    positions by chunk score / best chunk score of the document + passage score (with `sibling_weights`) / best
    passage score of the document. A chunk missing from `chunks`, and a document with one candidate, stay where
    they are."""
    positions: dict[str, list[int]] = {}
    for at, (chunk_id, _) in enumerate(ranked):
        chunk = chunks.get(chunk_id)
        if chunk is not None:
            positions.setdefault(chunk.document_id, []).append(at)
    reordered = list(ranked)
    for slots in positions.values():
        if len(slots) < 2:
            continue
        members = [ranked[at] for at in slots]
        sentences = [sentence_terms(chunks[chunk_id].text, weights) for chunk_id, _ in members]
        local = sibling_weights(weights, [set(chain.from_iterable(terms)) for terms in sentences])
        passages = [best_window_score(terms, local) for terms in sentences]
        top_score = max(score for _, score in members) or 1.0
        top_passage = max(passages) or 1.0
        combined = [
            round(score / top_score + passage / top_passage, 6)
            for (_, score), passage in zip(members, passages, strict=True)
        ]
        # Ties keep the content channel's order.
        order = sorted(range(len(members)), key=lambda i: (-combined[i], i))
        for at, i in zip(slots, order, strict=True):
            reordered[at] = members[i]
    return reordered
