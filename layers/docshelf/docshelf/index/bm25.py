"""BM25 over inverted postings in numpy arrays, with rank-bm25's BM25Okapi math.

k1 1.5, b 0.75, epsilon 0.25: idf = log(N - n + 0.5) - log(n + 0.5), and a negative idf is
replaced by epsilon times the mean idf over the vocabulary. Repeated query terms count again.
Only postings of the query terms are touched, so a query costs what its terms cost.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

K1 = 1.5
B = 0.75
EPSILON = 0.25

IntArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]


@dataclass(slots=True)
class _Posting:
    """Rows and term frequencies in compact arrays (4 bytes each), frozen to numpy on demand."""

    ids: array[int] = field(default_factory=lambda: array("i"))
    tfs: array[int] = field(default_factory=lambda: array("i"))
    frozen: tuple[IntArray, FloatArray] | None = None

    def arrays(self) -> tuple[IntArray, FloatArray]:
        if self.frozen is None:
            self.frozen = (np.array(self.ids, dtype=np.int32), np.array(self.tfs, dtype=np.float64))
        return self.frozen


class BM25Channel:
    """One channel's postings. Rows are slots handed out by the owner; a removed row stops counting."""

    def __init__(self) -> None:
        self._postings: dict[str, _Posting] = {}
        self._df: Counter[str] = Counter()  # live rows per term
        self._lengths: list[int] = []
        self._alive: list[bool] = []
        self._live_rows = 0
        self._live_length = 0
        self._cache: tuple[FloatArray, npt.NDArray[np.bool_], float] | None = None
        self._mean_idf: float | None = None

    def add(self, row: int, terms: Sequence[str]) -> None:
        while len(self._lengths) <= row:
            self._lengths.append(0)
            self._alive.append(False)
        counts = Counter(terms)
        for term, tf in counts.items():
            posting = self._postings.get(term)
            if posting is None:
                posting = self._postings[term] = _Posting()
            posting.ids.append(row)
            posting.tfs.append(tf)
            posting.frozen = None
            self._df[term] += 1
        self._lengths[row] = len(terms)
        self._alive[row] = True
        self._live_rows += 1
        self._live_length += len(terms)
        self._invalidate()

    def remove(self, row: int, terms: Sequence[str]) -> None:
        """Stop counting `row` (its postings stay, masked, until the owner rebuilds)."""
        if row >= len(self._alive) or not self._alive[row]:
            return
        for term in set(terms):
            self._df[term] -= 1
            if self._df[term] <= 0:
                del self._df[term]
        self._alive[row] = False
        self._live_rows -= 1
        self._live_length -= self._lengths[row]
        self._invalidate()

    def _invalidate(self) -> None:
        self._cache = None
        self._mean_idf = None

    def _arrays(self) -> tuple[FloatArray, npt.NDArray[np.bool_], float]:
        if self._cache is None:
            lengths = np.asarray(self._lengths, dtype=np.float64)
            average = self._live_length / self._live_rows if self._live_rows else 1.0
            norms = K1 * (1 - B + B * lengths / (average or 1.0))
            self._cache = (norms, np.asarray(self._alive, dtype=np.bool_), average)
        return self._cache

    def idf(self, term: str) -> float:
        df = self._df.get(term, 0)
        if df == 0:
            return 0.0
        value = math.log(self._live_rows - df + 0.5) - math.log(df + 0.5)
        if value >= 0:
            return value
        if self._mean_idf is None:
            dfs = np.fromiter(self._df.values(), dtype=np.float64, count=len(self._df))
            self._mean_idf = float(np.mean(np.log(self._live_rows - dfs + 0.5) - np.log(dfs + 0.5)))
        return EPSILON * self._mean_idf

    def scores(self, terms: Sequence[str], size: int) -> tuple[FloatArray, IntArray]:
        """(score per row, number of distinct query terms matched per row) for rows 0..size-1."""
        scores = np.zeros(size, dtype=np.float64)
        matched = np.zeros(size, dtype=np.int32)
        if not self._live_rows:
            return scores, matched
        norms, alive, _ = self._arrays()
        for term, repeats in Counter(terms).items():
            posting = self._postings.get(term)
            if posting is None or term not in self._df:
                continue
            ids, tfs = posting.arrays()
            live = alive[ids]
            ids, tfs = ids[live], tfs[live]
            weight = self.idf(term) * repeats
            scores[ids] += weight * tfs * (K1 + 1) / (tfs + norms[ids])
            matched[ids] += 1
        return scores, matched
