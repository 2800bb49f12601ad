"""The two BM25 baselines of bench/quality_bench.py, scored over the very chunks docshelf indexed.

* regex: rank-bm25's BM25Okapi over lower-cased regex words, CJK runs as character bigrams, no stemming
  (the reference row of ../shared/ireval/README.md).
* stemmed: a stand-in for Qwen-Agent's keyword search, the bar to beat: BM25Okapi over lower-cased words with
  NLTK's English stop words removed and Snowball English stems. Qwen-Agent cuts Chinese with jieba, which
  docshelf does not ship; CJK runs are character bigrams here, as in the regex baseline.

In both, a query term that repeats counts again (BM25Okapi sums over the query's tokens, repeats included).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import snowballstemmer

TOP_K = 10

_CJK_RUN = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)")
_WORD = re.compile(r"[^\W_]+")

# NLTK's English stop words (nltk_data corpora/stopwords/english), the list Qwen-Agent's keyword search drops.
# Contractions are left out: the word regex splits "don't" into "don" and "t", both listed.
_NLTK_ENGLISH = """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
    it its itself they them their theirs themselves what which who whom this that these those am is are was were
    be been being have has had having do does did doing a an the and but if or because as until while of at by for
    with about against between into through during before after above below to from up down in out on off over
    under again further then once here there when where why how all any both each few more most other some such no
    nor not only own same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn
    doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn
"""
STOP_WORDS = frozenset(_NLTK_ENGLISH.split())

_STEMMER = snowballstemmer.stemmer("english")

Tokenizer = Callable[[str], list[str]]


def _words_and_bigrams(text: str) -> list[tuple[str, bool]]:
    """(token, is_cjk) pairs: lower-cased NFKC regex words, CJK runs cut into character bigrams."""
    tokens: list[tuple[str, bool]] = []
    for word in _WORD.findall(unicodedata.normalize("NFKC", text).lower()):
        for number, part in enumerate(_CJK_RUN.split(word)):
            if number % 2 and len(part) > 1:
                tokens.extend((part[i : i + 2], True) for i in range(len(part) - 1))
            elif part:
                tokens.append((part, bool(number % 2)))
    return tokens


def regex_tokens(text: str) -> list[str]:
    """The reference baseline's tokens: lower-cased regex words, CJK runs as character bigrams."""
    return [token for token, _ in _words_and_bigrams(text)]


def stemmed_tokens(text: str) -> list[str]:
    """The stemmed baseline's tokens: regex words without English stop words, Snowball-stemmed; CJK bigrams."""
    words = [(token, cjk) for token, cjk in _words_and_bigrams(text) if cjk or token not in STOP_WORDS]
    stems: list[str] = _STEMMER.stemWords([token for token, cjk in words if not cjk])
    stemmed = iter(stems)
    return [token if cjk else next(stemmed) for token, cjk in words]


class Bm25Scorer:
    """BM25Okapi's scores (rank-bm25's idf, k1, b and length norm), from postings instead of a pass over every
    chunk per query term: rank-bm25's own get_scores makes the Chinese QA sets take minutes."""

    def __init__(self, corpus: Sequence[list[str]]) -> None:
        from rank_bm25 import BM25Okapi

        self.bm25 = BM25Okapi(list(corpus))
        lengths = np.asarray(self.bm25.doc_len, dtype=float)
        self._norm = self.bm25.k1 * (1 - self.bm25.b + self.bm25.b * lengths / self.bm25.avgdl)
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for number, frequencies in enumerate(self.bm25.doc_freqs):
            for term, count in frequencies.items():
                chunks, counts = postings.setdefault(term, ([], []))
                chunks.append(number)
                counts.append(count)
        self._postings = {term: (np.asarray(c), np.asarray(f, dtype=float)) for term, (c, f) in postings.items()}

    def scores(self, query: list[str]) -> np.ndarray[Any, np.dtype[np.float64]]:
        scores = np.zeros(len(self._norm))
        for term in query:  # repeats count again, as in BM25Okapi.get_scores
            if term not in self._postings:
                continue
            chunks, counts = self._postings[term]
            idf = self.bm25.idf[term]
            scores[chunks] += idf * counts * (self.bm25.k1 + 1) / (counts + self._norm[chunks])
        return scores


def baseline_run(chunks: Sequence[Any], questions: list[dict[str, Any]], tokens: Tokenizer) -> list[dict[str, Any]]:
    """An evaluate.py run: the top chunks (`source_file_name`, `text`) of BM25 over `tokens` for each question."""
    scorer = Bm25Scorer([tokens(chunk.text) for chunk in chunks])
    run = []
    for question in questions:
        scores = scorer.scores(tokens(question["query"]))
        best = np.argsort(-scores, kind="stable")[:TOP_K]
        results = [{"doc": chunks[i].source_file_name, "text": chunks[i].text, "score": float(scores[i])} for i in best]
        run.append({"qid": question["qid"], "results": results})
    return run
