"""The ids of a text's whitespace-separated pieces, found in numpy rather than with one Python look-up a piece.

A piece of at most 15 UTF-8 bytes has an exact 16-byte key: its bytes, zero-padded, with its length in the
last byte. The keys seen so far live in an open-addressing table probed for a whole batch at once. Longer
pieces, unseen keys and keys whose 64-bit mix clashes with another's within a batch go to the caller's
look-up, in the order they first appear, once per distinct key (a clashing one once per occurrence).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from docshelf.index.embedded.bm25 import IntArray

U64Array = npt.NDArray[np.uint64]

# str.split() separates on these characters besides the ASCII ones below (str.isspace(); a test checks the
# list against every code point). Text holding one is split by Python instead.
UNICODE_SPACES = (
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_UNICODE_SPACE = re.compile(f"[{UNICODE_SPACES}]")
_IS_SOLID = np.ones(256, dtype=np.bool_)
_IS_SOLID[[0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20]] = False
_LOW_BYTES = np.array([(1 << (8 * count)) - 1 for count in range(9)], dtype=np.uint64)  # mask of the first n bytes
_MAX_KEYED = 15
_PADDING = bytes(16)


def piece_bounds(data: bytes) -> tuple[IntArray, IntArray]:
    """(start, end) byte offsets of the pieces `data.split()` gives."""
    solid = np.zeros(len(data) + 2, dtype=np.bool_)  # a space before and after: every piece starts and ends
    np.take(_IS_SOLID, np.frombuffer(data, dtype=np.uint8), out=solid[1:-1])
    edges = np.flatnonzero(solid[1:] != solid[:-1])
    return edges[0::2], edges[1::2]


def exact_keys(data: bytes, starts: IntArray, ends: IntArray) -> tuple[U64Array, U64Array, npt.NDArray[np.bool_]]:
    """(first 8 bytes, next 7 bytes and the length, whether the key is exact) of each piece, little-endian."""
    padded = data + _PADDING
    words = np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    lengths = ends - starts
    first = words[starts] & _LOW_BYTES[np.minimum(lengths, 8)]
    second = words[starts + 8] & _LOW_BYTES[np.clip(lengths - 8, 0, 7)]
    second |= lengths.astype(np.uint64) << np.uint64(56)
    return first, second, lengths <= _MAX_KEYED


def mixed(first: U64Array, second: U64Array) -> U64Array:
    """A 64-bit mix of both key words (splitmix64's finaliser over a multiplicative combination)."""
    value = first * np.uint64(0x9E3779B97F4A7C15) ^ second * np.uint64(0xC2B2AE3D27D4EB4F)
    value ^= value >> np.uint64(31)
    value *= np.uint64(0xBF58476D1CE4E5B9)
    value ^= value >> np.uint64(29)
    return value


class PieceKeys:
    """Exact keys of short pieces with their ids, in an open-addressing table (linear probing, slot from the
    top bits of the key's mix, at most half full), probed for a whole batch at once."""

    def __init__(self) -> None:
        self._allocate(1 << 12)
        self._count = 0

    def _allocate(self, capacity: int) -> None:
        self._shift = np.uint64(64 - capacity.bit_length() + 1)
        self._first = np.zeros(capacity, dtype=np.uint64)
        self._second = np.zeros(capacity, dtype=np.uint64)  # never 0 in a used slot: it holds the length
        self._ids = np.full(capacity, -1, dtype=np.int64)
        self._longest_probe = 0

    def __len__(self) -> int:
        return self._count

    def _slots(self, first: U64Array, second: U64Array) -> IntArray:
        return (mixed(first, second) >> self._shift).astype(np.int64)

    def find(self, first: U64Array, second: U64Array) -> IntArray:
        """The id of each key, -1 for keys not in the table."""
        slots = self._slots(first, second)
        held = self._second[slots]
        # Most keys are found (or known absent) at their first slot: that probe works on whole arrays.
        hit = (held == second) & (self._first[slots] == first)
        ids = np.where(hit, self._ids[slots], -1)
        pending = np.flatnonzero(~hit & (held != 0))
        last = len(self._ids) - 1
        slots = (slots[pending] + 1) & last
        for _ in range(self._longest_probe):
            if not len(pending):
                break
            held = self._second[slots]
            hit = (held == second[pending]) & (self._first[slots] == first[pending])
            ids[pending[hit]] = self._ids[slots[hit]]
            going_on = ~hit & (held != 0)
            pending, slots = pending[going_on], (slots[going_on] + 1) & last
        return ids

    def add(self, first: U64Array, second: U64Array, ids: IntArray) -> None:
        """Add distinct keys that are not in the table yet."""
        if 2 * (self._count + len(ids)) > len(self._ids):
            used = np.flatnonzero(self._second)
            old = self._first[used], self._second[used], self._ids[used]
            capacity = len(self._ids)
            while 2 * (self._count + len(ids)) > capacity:
                capacity *= 2
            self._allocate(capacity)
            self._place(*old)
        self._place(first, second, ids)
        self._count += len(ids)

    def _place(self, first: U64Array, second: U64Array, ids: IntArray) -> None:
        pending = np.arange(len(ids), dtype=np.int64)
        slots = self._slots(first, second)
        last, probe = len(self._ids) - 1, 0
        while len(pending):
            free = self._second[slots] == 0
            # Of keys wanting the same free slot the first takes it; the others probe on.
            candidates = np.flatnonzero(free)
            _, winners = np.unique(slots[candidates], return_index=True)
            placed = candidates[winners]
            taken, keys = slots[placed], pending[placed]
            self._first[taken], self._second[taken], self._ids[taken] = first[keys], second[keys], ids[keys]
            self._longest_probe = max(self._longest_probe, probe)
            going_on = np.ones(len(pending), dtype=np.bool_)
            going_on[placed] = False
            pending, slots = pending[going_on], (slots[going_on] + 1) & last
            probe += 1


def piece_ids(keys: PieceKeys, text: str, look_up: Callable[[list[str]], IntArray]) -> IntArray:
    """The id of each piece of `text.split()`, in order; `look_up(pieces)` gives the ids of those `keys` does
    not know, and the short ones among them join `keys`."""
    if not text.isascii() and _UNICODE_SPACE.search(text):
        return look_up(text.split())
    data = text.encode("utf-8", "surrogatepass")  # lone surrogates round-trip
    starts, ends = piece_bounds(data)
    first, second, exact = exact_keys(data, starts, ends)
    ids = np.full(len(starts), -1, dtype=np.int64)
    keyed = np.flatnonzero(exact)
    ids[keyed] = keys.find(first[keyed], second[keyed])
    missing = np.flatnonzero(ids < 0)
    if not len(missing):
        return ids

    def piece(at: int) -> str:
        return data[starts[at] : ends[at]].decode("utf-8", "surrogatepass")

    keyed = missing[exact[missing]]
    _, firsts, inverse = np.unique(mixed(first[keyed], second[keyed]), return_index=True, return_inverse=True)
    representatives = keyed[firsts]
    shared = representatives[inverse]
    clashing = (first[keyed] != first[shared]) | (second[keyed] != second[shared])
    # Looked up in text order, so that new pieces (and their new terms) get the ids a piece-by-piece look-up
    # would give them: each distinct piece's first appearance is a representative or in `alone`.
    alone = np.concatenate((missing[~exact[missing]], keyed[clashing]))
    looked_up = np.sort(np.concatenate((representatives, alone)))
    ids[looked_up] = look_up(list(map(piece, looked_up.tolist())))
    ids[keyed[~clashing]] = ids[shared[~clashing]]
    keys.add(first[representatives], second[representatives], ids[representatives])
    return ids
