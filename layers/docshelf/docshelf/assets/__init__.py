"""Images kept as assets: decoded once at parse time, re-encoded deterministically, stored content-addressed.

`prepare` (Pillow) turns an embedded image's bytes into what is stored; `collect` gives each distinct image of a
document one asset, near-duplicates included (`hashing`: pHash and dHash); `storage` writes and removes the
stored objects (no Pillow: the chunk stage and the search API use it too).
"""

from __future__ import annotations


def hamming(a: int, b: int) -> int:
    """The number of bits two perceptual hashes differ in."""
    return (a ^ b).bit_count()
