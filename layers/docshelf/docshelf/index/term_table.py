"""Analysis straight to term ids for indexing, at numpy speed.

A text is normalised and split on whitespace (no token spans whitespace, see analyzer.py); each
distinct piece is analysed once and its content and raw term ids are kept in flat arrays, so the
terms of a whole batch come from piece ids found in numpy (piece_keys.py) and a few numpy gathers.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

from docshelf.index.analyzer import normalize, piece_terms
from docshelf.index.bm25 import IntArray, Vocabulary
from docshelf.index.piece_keys import PieceKeys, piece_ids

CONTENT, RAW = 0, 1
_BOUNDARY = "\x00"  # neither a word character nor whitespace, so it is a piece of its own without terms
_SEPARATOR = f" {_BOUNDARY} "


class _PieceTerms:
    """Term ids per piece id in CSR form: ids[starts[p] : starts[p] + lengths[p]]."""

    def __init__(self) -> None:
        self.starts = np.zeros(0, dtype=np.int64)
        self.lengths = np.zeros(0, dtype=np.int64)
        self.ids = np.zeros(0, dtype=np.int64)
        self.used = 0
        self._new_lengths: list[int] = []
        self._new_ids: list[int] = []

    def append(self, term_ids: Sequence[int]) -> None:
        self._new_lengths.append(len(term_ids))
        self._new_ids.extend(term_ids)

    def flush(self) -> None:
        if not self._new_lengths:
            return
        lengths = np.asarray(self._new_lengths, dtype=np.int64)
        new_ids = np.asarray(self._new_ids, dtype=np.int64)
        starts = self.used + np.cumsum(lengths) - lengths
        self.starts = np.concatenate((self.starts, starts))
        self.lengths = np.concatenate((self.lengths, lengths))
        if self.used + len(new_ids) > len(self.ids):
            grown = np.zeros(max(2 * len(self.ids), self.used + len(new_ids), 4096), dtype=np.int64)
            grown[: self.used] = self.ids[: self.used]
            self.ids = grown
        self.ids[self.used : self.used + len(new_ids)] = new_ids
        self.used += len(new_ids)
        self._new_lengths, self._new_ids = [], []

    def gather(self, pieces: IntArray, owners: IntArray) -> tuple[IntArray, IntArray]:
        """(term ids, owner of each term) for a sequence of piece ids, each with its owner (row)."""
        lengths = self.lengths[pieces]
        total = int(lengths.sum())
        shift = np.repeat(self.starts[pieces] - (np.cumsum(lengths) - lengths), lengths)
        return self.ids[shift + np.arange(total, dtype=np.int64)], np.repeat(owners, lengths)


class _Pieces(dict[str, int]):
    """Piece -> id; an unseen piece is analysed, and its term ids queued for the CSR tables."""

    def __init__(self, vocabulary: Vocabulary, content: _PieceTerms, raw: _PieceTerms) -> None:
        super().__init__()
        self._term_id = vocabulary.__getitem__
        self._content = content
        self._raw = raw

    def __missing__(self, piece: str) -> int:
        content, raw = piece_terms(piece)
        self._content.append(list(map(self._term_id, content)))
        self._raw.append(list(map(self._term_id, raw)))
        piece_id = self[piece] = len(self)
        return piece_id


class TermTable:
    """Term ids (one vocabulary) and the pieces seen so far with their content and raw term ids."""

    MAX_PIECES = 2_000_000

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._reset()

    def _reset(self) -> None:
        self._content, self._raw = _PieceTerms(), _PieceTerms()
        self._pieces = _Pieces(self.vocabulary, self._content, self._raw)
        self._keys = PieceKeys()

    def text_terms(self, texts: Sequence[str]) -> tuple[tuple[IntArray, IntArray], tuple[IntArray, IntArray]]:
        """For the content and the raw channel: (term ids, position of their text in `texts`)."""
        if len(self._pieces) > self.MAX_PIECES:
            self._reset()
        joined = _SEPARATOR.join(texts)
        if joined.count(_BOUNDARY) == max(len(texts) - 1, 0):
            # One normalisation and one split for all texts: the boundary piece has no terms, and counting
            # boundaries gives each piece its text. NFKC and case folding do not act across the spaces.
            pieces = piece_ids(self._keys, normalize(joined), self._pieces.__getitem__)
            owners = np.cumsum(pieces == self._pieces[_BOUNDARY])
        else:  # a text holds the boundary character itself
            split = [normalize(text).split() for text in texts]
            counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
            pieces = np.fromiter(map(self._pieces.__getitem__, chain.from_iterable(split)), dtype=np.int64)
            owners = np.repeat(np.arange(len(texts), dtype=np.int64), counts)
        self._content.flush()
        self._raw.flush()
        return self._content.gather(pieces, owners), self._raw.gather(pieces, owners)
