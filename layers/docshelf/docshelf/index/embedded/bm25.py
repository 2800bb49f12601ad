"""BM25 over inverted postings in numpy arrays, with rank-bm25's BM25Okapi math but for the idf floor
(index/bm25_math.py). A query term's score is multiplied by its weight.
Only postings of the query terms are touched, so a query costs what its terms cost.

Terms are integer ids (a namespace's `Vocabulary`). Each added batch of rows (one document) becomes a
small segment of postings sorted by term; segments are merged lazily, when a query needs them, into
a few tiers of segments of geometrically growing size, dropping the postings of removed rows on the way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from docshelf.index import bm25_math

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
_Array = TypeVar("_Array", bound="npt.NDArray[Any]")


class Vocabulary(dict[str, int]):
    """Term -> id; `ids` gives unseen terms the next ids."""

    def __init__(self) -> None:
        super().__init__()
        self.terms: list[str] = []
        self._shapes: dict[tuple[str, int], list[int]] = {}  # (first letter, length) -> term ids
        self._shaped = 0

    def with_shape(self, first: str, lengths: range) -> list[int]:
        """Ids of the terms that start with `first` and have one of `lengths` (for spelling candidates); the
        lookup grows with the vocabulary, which only ever grows."""
        for term_id in range(self._shaped, len(self.terms)):
            term = self.terms[term_id]
            self._shapes.setdefault((term[:1], len(term)), []).append(term_id)
        self._shaped = len(self.terms)
        return [term_id for length in lengths for term_id in self._shapes.get((first, length), ())]

    def ids(self, terms: Iterable[str]) -> IntArray:
        """The id of each term; unseen ones are numbered in the order they first appear, all at once."""
        listed = terms if isinstance(terms, list) else list(terms)
        if not self:  # distinct terms into an empty vocabulary (a snapshot's) are numbered in one pass
            self.update(zip(listed, range(len(listed)), strict=True))
            if len(self) == len(listed):
                self.terms.extend(listed)
                return np.arange(len(listed), dtype=np.int64)
            self.clear()
        self.terms.extend(number_unseen(self, listed))
        return np.fromiter(map(self.__getitem__, listed), dtype=np.int64, count=len(listed))


def number_unseen(numbers: dict[str, int], keys: list[str]) -> list[str]:
    """Give the keys `numbers` lacks the next numbers (from len(numbers)), in the order they first appear;
    returns those keys."""
    unseen = [key for key in dict.fromkeys(keys) if key not in numbers]
    numbers.update(zip(unseen, range(len(numbers), len(numbers) + len(unseen)), strict=True))
    return unseen


def runs(sorted_values: IntArray) -> tuple[IntArray, IntArray]:
    """(distinct values, how often each occurs) of a sorted array."""
    if not len(sorted_values):
        return sorted_values, sorted_values
    firsts = np.flatnonzero(np.concatenate(([True], sorted_values[1:] != sorted_values[:-1])))
    return sorted_values[firsts], np.diff(np.append(firsts, len(sorted_values)))


def sorted_distinct(values: IntArray) -> IntArray:
    """The distinct values, sorted. np.unique without return_* takes a hash-table path here that is 10-40x
    slower than this on arrays of sorted runs (measured on numpy 2.4 with term ids)."""
    return runs(np.sort(values, kind="stable"))[0]


@dataclass(frozen=True, slots=True)
class Postings:
    """(term, row, tf) triples sorted by term, stored by term: rows[starts[i]:starts[i+1]] hold terms[i]."""

    terms: IntArray
    starts: IntArray
    rows: npt.NDArray[np.int32]
    tfs: npt.NDArray[np.int32]

    @classmethod
    def of_sorted(cls, term_col: IntArray, row_col: IntArray, tf_col: IntArray) -> Postings:
        """Postings of triples sorted by term already."""
        terms, counts = runs(term_col)
        return cls(
            terms=terms,
            starts=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
            rows=row_col.astype(np.int32),
            tfs=tf_col.astype(np.int32),
        )

    @classmethod
    def merge(cls, parts: Sequence[Postings], alive: BoolArray | None) -> Postings:
        """The parts' postings of live rows (all of them with `alive` None) in one, sorted by term, then part,
        then place in the part, placed by counting rather than sorted again."""
        kept = list(parts) if alive is None else [part.live(alive) for part in parts]
        terms = sorted_distinct(np.concatenate([part.terms for part in kept]))
        places = [np.searchsorted(terms, part.terms) for part in kept]
        totals = np.zeros(len(terms), dtype=np.int64)
        for part, at in zip(kept, places, strict=True):
            totals[at] += np.diff(part.starts)
        starts = np.concatenate(([0], np.cumsum(totals))).astype(np.int64)
        rows = np.empty(int(starts[-1]), dtype=np.int32)
        tfs = np.empty(int(starts[-1]), dtype=np.int32)
        cursors = starts[:-1].copy()
        for part, at in zip(kept, places, strict=True):
            counts = np.diff(part.starts)
            destinations = np.repeat(cursors[at] - part.starts[:-1], counts) + np.arange(len(part.rows))
            rows[destinations], tfs[destinations] = part.rows, part.tfs
            cursors[at] += counts
        return cls(terms, starts, rows, tfs)

    def live(self, alive: BoolArray) -> Postings:
        """These postings without those of rows `alive` says are removed."""
        keep = alive[self.rows]
        if keep.all():
            return self
        kept_before = np.concatenate(([0], np.cumsum(keep)))
        counts = kept_before[self.starts[1:]] - kept_before[self.starts[:-1]]
        held = counts > 0
        starts = np.concatenate(([0], np.cumsum(counts[held]))).astype(np.int64)
        return Postings(self.terms[held], starts, self.rows[keep], self.tfs[keep])

    def __len__(self) -> int:
        return len(self.rows)

    def lookup(self, term_id: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        at = int(np.searchsorted(self.terms, term_id))
        if at == len(self.terms) or self.terms[at] != term_id:
            return self.rows[:0], self.tfs[:0]
        start, end = self.starts[at], self.starts[at + 1]
        return self.rows[start:end], self.tfs[start:end]


def _grown(array: _Array, size: int) -> _Array:
    if len(array) >= size:
        return array
    grown = np.zeros(max(size, 2 * len(array), 1024), dtype=array.dtype)
    grown[: len(array)] = array
    return cast("_Array", grown)


class BM25Channel:
    """One channel's postings. Rows are slots handed out by the owner; a removed row stops counting."""

    # Segments of like size (the largest less than MERGE_FACTOR times the smallest) are merged MERGE_FACTOR at a
    # time, as Lucene's tiered policy does: each posting is rewritten about log4(segments) times, and a channel
    # holds about 3 segments per 4x of size. Merging a segment into the one before it once it is half that size
    # rewrites postings twice as often (a 100k-chunk bulk build then spends about a fifth of its time merging).
    MERGE_FACTOR = 4
    MAX_CACHED_POSTINGS = 5_000_000

    def __init__(self) -> None:
        self._segments: list[Postings] = []
        self._pending: list[Postings] = []
        self._df = np.zeros(0, dtype=np.int64)  # live rows per term id
        self._lengths = np.zeros(0, dtype=np.int64)
        self._alive = np.zeros(0, dtype=np.bool_)
        self._live_rows = 0
        self._live_length = 0
        self._removed_rows = 0  # rows masked by `_alive`; their postings go at the next merge that sees them
        self._norms: FloatArray | None = None
        self._contributions: dict[int, tuple[npt.NDArray[np.int32], FloatArray]] = {}
        self._cached_postings = 0

    def add(self, rows: IntArray, postings: Postings) -> None:
        """Add `rows` (consecutive) with their postings."""
        self._pending.append(postings)
        if not len(rows):
            return
        first = int(rows[0])
        self._lengths = _grown(self._lengths, first + len(rows))
        self._alive = _grown(self._alive, first + len(rows))
        lengths = np.bincount(postings.rows - first, weights=postings.tfs, minlength=len(rows)).astype(np.int64)
        self._lengths[rows] = lengths
        self._alive[rows] = True
        if len(postings.terms):
            self._df = _grown(self._df, int(postings.terms[-1]) + 1)
            self._df[postings.terms] += np.diff(postings.starts)
        self._live_rows += len(rows)
        self._live_length += int(lengths.sum())
        self._invalidate()

    def remove(
        self, rows: IntArray, terms: npt.NDArray[np.integer[Any]], df_delta: npt.NDArray[np.integer[Any]]
    ) -> None:
        """Stop counting `rows`, added together with the (terms, df_delta) `add` returned."""
        rows = rows[self._alive[rows]]
        if not len(rows):
            return
        self._df[terms] -= df_delta
        self._alive[rows] = False
        self._removed_rows += len(rows)
        self._live_rows -= len(rows)
        self._live_length -= int(self._lengths[rows].sum())
        self._invalidate()

    def _invalidate(self) -> None:
        self._norms = None
        self._contributions.clear()
        self._cached_postings = 0

    def merge_pending(self) -> None:
        """Merge now what the next query would merge (after a bulk write, so that query stays fast)."""
        self._merged_segments()

    def live_postings(self) -> Postings:
        """The postings of the live rows in one (the segments are left as they are)."""
        segments = self._merged_segments()
        alive = self._alive if self._removed_rows else None
        if len(segments) == 1 and alive is None:
            return segments[0]
        if not segments:
            return Postings.of_sorted(*(np.zeros(0, dtype=np.int64),) * 3)
        return Postings.merge(segments, alive)

    def _merged_segments(self) -> list[Postings]:
        if self._pending:
            pending = self._pending
            alive = self._alive if self._removed_rows else None  # None: no row was ever removed
            # One block with every row alive (a bulk write or a load) is sorted already.
            alone = len(pending) == 1 and (alive is None or bool(alive[pending[0].rows].all()))
            merged = pending[0] if alone else Postings.merge(pending, alive)
            if len(merged):
                self._segments.append(merged)
            self._pending = []
            while len(self._segments) >= self.MERGE_FACTOR:
                tail = self._segments[-self.MERGE_FACTOR :]
                if max(map(len, tail)) >= self.MERGE_FACTOR * min(map(len, tail)):
                    break
                del self._segments[-self.MERGE_FACTOR :]
                self._segments.append(Postings.merge(tail, alive))
        return self._segments

    def _row_norms(self) -> FloatArray:
        norms = self._norms
        if norms is None:
            average = self._live_length / self._live_rows if self._live_rows else 1.0
            k1, b = bm25_math.K1, bm25_math.B
            norms = self._norms = np.asarray(k1 * (1 - b + b * self._lengths / (average or 1.0)), dtype=np.float64)
        return norms

    def document_frequency(self, term_id: int) -> int:
        return int(self._df[term_id]) if 0 <= term_id < len(self._df) else 0

    def document_frequencies(self, term_ids: IntArray) -> IntArray:
        """`document_frequency` of each id, at once."""
        known = term_ids < len(self._df)
        found = np.zeros(len(term_ids), dtype=np.int64)
        found[known] = self._df[term_ids[known]]
        return found

    def idf(self, term_id: int) -> float:
        return bm25_math.okapi_idf(self._live_rows, self.document_frequency(term_id))

    def _term_postings(self, term_id: int) -> tuple[npt.NDArray[np.int32], FloatArray]:
        """Live rows holding the term, with tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)) for each;
        kept until the next write, since the terms people search for repeat."""
        cached = self._contributions.get(term_id)
        if cached is None:
            norms = self._row_norms()
            rows_parts, parts = [], []
            for segment in self._merged_segments():
                rows, tfs = segment.lookup(term_id)
                if self._removed_rows:
                    live = self._alive[rows]
                    rows, tfs = rows[live], tfs[live]
                rows_parts.append(rows)
                parts.append(tfs * (bm25_math.K1 + 1) / (tfs + norms[rows]))
            cached = (np.concatenate(rows_parts), np.concatenate(parts))
            self._cached_postings += len(cached[0])
            if self._cached_postings > self.MAX_CACHED_POSTINGS:
                self._contributions.clear()
                self._cached_postings = len(cached[0])
            self._contributions[term_id] = cached
        return cached

    def scores(
        self, weights: Mapping[int, float], size: int, required: int = 1, optional: Collection[int] = ()
    ) -> tuple[FloatArray, BoolArray]:
        """(score per row, whether the row matched at least `required` distinct query terms other than `optional`
        ones) for rows 0..size-1; each term's BM25 score counts `weights[term id]` times (rank-bm25 counts a
        repeated query term again), an optional term's too."""
        rows_parts, weighted, counted = [], [], []
        for term_id, weight in weights.items():
            if self._live_rows and self.document_frequency(term_id) > 0:
                rows, contributions = self._term_postings(term_id)
                rows_parts.append(rows)
                weighted.append(contributions * (self.idf(term_id) * weight))
                if term_id not in optional:
                    counted.append(rows)
        if not rows_parts:
            return np.zeros(size, dtype=np.float64), np.zeros(size, dtype=np.bool_)
        rows = np.concatenate(rows_parts)
        scores = np.asarray(np.bincount(rows, weights=np.concatenate(weighted), minlength=size), dtype=np.float64)
        if required <= 1 and len(counted) == len(rows_parts) and all(weight > 0 for weight in weights.values()):
            # Every posting adds more than 0 (idf >= MIN_IDF, tf >= 1): a row matched a term iff it scores.
            return scores, scores > 0
        matching = np.concatenate(counted) if counted else np.zeros(0, dtype=rows.dtype)
        if required > 1:
            return scores, np.bincount(matching, minlength=size) >= required
        matched = np.zeros(size, dtype=np.bool_)
        matched[matching] = True
        return scores, matched
