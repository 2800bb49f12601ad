"""Analysis straight to term ids for indexing, at numpy speed.

A text is normalised and split on whitespace (no token spans whitespace, see analyzer.py); each
distinct piece is analyzed once and its content and raw term ids are kept in flat arrays, so the
terms of a whole batch come from piece ids found in numpy (piece_keys.py) and a few numpy gathers.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
import numpy.typing as npt

from docshelf.index.analyzer import MAX_CHUNK_TRIGRAMS, is_trigram, normalize, piece_terms
from docshelf.index.embedded.bm25 import IntArray, Vocabulary, number_unseen
from docshelf.index.embedded.piece_keys import PieceKeys, piece_ids

_BOUNDARY = "\x00"  # neither a word character nor whitespace, so it is a piece of its own without terms
_SEPARATOR = f" {_BOUNDARY} "


def _appended(array: IntArray, used: int, values: IntArray) -> IntArray:
    """`array` (its first `used` entries in use) with `values` after them, grown geometrically."""
    if used + len(values) > len(array):
        grown = np.zeros(max(2 * len(array), used + len(values), 4096), dtype=array.dtype)
        grown[:used] = array[:used]
        array = grown
    array[used : used + len(values)] = values
    return array


class _PieceTerms:
    """Term ids per piece id in CSR form: ids[starts[p] : starts[p] + lengths[p]]."""

    def __init__(self) -> None:
        self.starts = np.zeros(0, dtype=np.int64)
        self.lengths = np.zeros(0, dtype=np.int64)
        self.ids = np.zeros(0, dtype=np.int64)
        self.pieces = 0
        self.used = 0

    def extend(self, lengths: IntArray, term_ids: IntArray) -> None:
        """Add the next pieces: each one's number of terms, and all their term ids in order."""
        starts = self.used + np.cumsum(lengths) - lengths
        self.starts = _appended(self.starts, self.pieces, starts)
        self.lengths = _appended(self.lengths, self.pieces, lengths)
        self.ids = _appended(self.ids, self.used, term_ids)
        self.pieces += len(lengths)
        self.used += len(term_ids)

    def gather(self, pieces: IntArray, owners: IntArray) -> tuple[IntArray, IntArray]:
        """(term ids, owner of each term) for a sequence of piece ids, each with its owner (row)."""
        lengths = self.lengths[pieces]
        total = int(lengths.sum())
        shift = np.repeat(self.starts[pieces] - (np.cumsum(lengths) - lengths), lengths)
        return self.ids[shift + np.arange(total, dtype=np.int64)], np.repeat(owners, lengths)


class TermTable:
    """Term ids (one vocabulary) and the pieces seen so far with their content and raw term ids."""

    MAX_PIECES = 2_000_000

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._trigram_flags = np.zeros(0, dtype=np.bool_)  # per vocabulary id: a `#abc` term
        self._reset()

    def _reset(self) -> None:
        self._content, self._raw = _PieceTerms(), _PieceTerms()
        self._pieces: dict[str, int] = {}
        self._keys = PieceKeys()
        self._boundary = int(self._piece_ids([_BOUNDARY])[0])

    def _piece_ids(self, pieces: list[str]) -> IntArray:
        """The id of each piece. Unseen ones are analyzed and numbered in the order they first appear, all at
        once: one call per new piece cost more than its analysis (a cached look-up for most)."""
        new = number_unseen(self._pieces, pieces)
        if new:
            analyzed = list(map(piece_terms, new))
            for table, terms in ((self._content, [a[0] for a in analyzed]), (self._raw, [a[1] for a in analyzed])):
                lengths = np.fromiter(map(len, terms), dtype=np.int64, count=len(terms))
                table.extend(lengths, self.vocabulary.ids(list(chain.from_iterable(terms))))
        return np.fromiter(map(self._pieces.__getitem__, pieces), dtype=np.int64, count=len(pieces))

    def bounded_trigrams(self, term_ids: IntArray, owners: IntArray) -> tuple[IntArray, IntArray]:
        """Raw term ids (text order, owners nondecreasing) with only each owner's first MAX_CHUNK_TRIGRAMS distinct
        trigrams, every occurrence of those kept: `analyzer.bounded_trigrams` of each text, at numpy speed."""
        trigram = self._trigrams(term_ids)
        at = np.flatnonzero(trigram)
        if not len(at):
            return term_ids, owners
        key = owners[at] * (int(term_ids.max()) + 1) + term_ids[at]
        distinct, first = np.unique(key, return_index=True)
        owner_of = owners[at][first]
        order = np.lexsort((first, owner_of))  # each owner's distinct trigrams in the order they first appear
        grouped = owner_of[order]
        starts = np.flatnonzero(np.concatenate(([True], grouped[1:] != grouped[:-1])))
        rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.append(starts, len(order))))
        dropped = distinct[order[rank >= MAX_CHUNK_TRIGRAMS]]
        if not len(dropped):
            return term_ids, owners
        keep = np.ones(len(term_ids), dtype=np.bool_)
        keep[at[np.isin(key, dropped)]] = False
        return term_ids[keep], owners[keep]

    def _trigrams(self, term_ids: IntArray) -> npt.NDArray[np.bool_]:
        terms = self.vocabulary.terms
        if len(self._trigram_flags) < len(terms):
            new = terms[len(self._trigram_flags) :]
            flags = np.fromiter(map(is_trigram, new), dtype=np.bool_, count=len(new))
            self._trigram_flags = np.concatenate((self._trigram_flags, flags))
        return self._trigram_flags[term_ids]

    def text_terms(self, texts: Sequence[str]) -> tuple[tuple[IntArray, IntArray], tuple[IntArray, IntArray]]:
        """For the content and the raw channel: (term ids, position of their text in `texts`)."""
        if len(self._pieces) > self.MAX_PIECES:
            self._reset()
        joined = _SEPARATOR.join(texts)
        if joined.count(_BOUNDARY) == max(len(texts) - 1, 0):
            # One normalisation and one split for all texts: the boundary piece has no terms, and counting
            # boundaries gives each piece its text. NFKC and case folding do not act across the spaces.
            pieces = piece_ids(self._keys, normalize(joined), self._piece_ids)
            owners = np.cumsum(pieces == self._boundary)
        else:  # a text holds the boundary character itself
            split = [normalize(text).split() for text in texts]
            counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
            pieces = self._piece_ids(list(chain.from_iterable(split)))
            owners = np.repeat(np.arange(len(texts), dtype=np.int64), counts)
        return self._content.gather(pieces, owners), self._raw.gather(pieces, owners)
