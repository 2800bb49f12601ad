"""A batch of documents' term occurrences turned into postings, with one sort per channel.

Each channel's (term, chunk, tf) postings come out of one `np.unique` over `term << 32 | chunk`, already in
the order a BM25 segment keeps (by term, then chunk).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from docshelf.index.base import Channel
from docshelf.index.bm25 import IntArray
from docshelf.model import Chunk


@dataclass(frozen=True, slots=True)
class ChannelPostings:
    """One posting per distinct (term, chunk) pair, sorted by term, then chunk (its position in the batch)."""

    terms: IntArray
    positions: IntArray
    tfs: IntArray

    def before(self, position: int) -> ChannelPostings:
        keep = self.positions < position
        return ChannelPostings(self.terms[keep], self.positions[keep], self.tfs[keep])


@dataclass(frozen=True, slots=True)
class AnalysedBatch:
    documents: list[tuple[str, Sequence[Chunk]]]
    channels: dict[Channel, ChannelPostings]

    def first(self, count: int) -> AnalysedBatch:
        """The batch's first `count` documents alone."""
        if count == len(self.documents):
            return self
        end = sum(len(chunks) for _, chunks in self.documents[:count])
        channels = {channel: postings.before(end) for channel, postings in self.channels.items()}
        return AnalysedBatch(self.documents[:count], channels)


def counted(term_ids: IntArray, positions: IntArray) -> ChannelPostings:
    """Postings of (term id, position) occurrences, with the term frequency of each distinct pair."""
    keys, tfs = np.unique((term_ids << 32) | positions, return_counts=True)
    return ChannelPostings(keys >> 32, keys & 0xFFFFFFFF, tfs.astype(np.int64))


def analysed_batch(
    documents: Sequence[tuple[str, Sequence[Chunk]]], occurrences: dict[Channel, tuple[IntArray, IntArray]]
) -> AnalysedBatch:
    """The batch from each channel's term occurrences: (term ids, position of their chunk in the batch)."""
    return AnalysedBatch(list(documents), {channel: counted(*found) for channel, found in occurrences.items()})
