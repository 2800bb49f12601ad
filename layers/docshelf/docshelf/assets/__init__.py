"""Images kept as assets: decoded once at parse time, re-encoded deterministically, stored content-addressed.

`prepare` (Pillow) turns an embedded image's bytes into what is stored; `collect` gives each distinct image of a
document one asset, near-duplicates included (`hashing`: pHash and dHash); `storage` writes and removes the
stored objects (no Pillow: the chunk stage and the search API use it too).
"""

from __future__ import annotations

import re

# An asset reference as the parsers write it in `model.Image.asset_ref`: the stored bytes' sha256 and extension.
_ASSET_REF = re.compile(r"[0-9a-f]{64}\.(png|jpg)")


def hamming(a: int, b: int) -> int:
    """The number of bits two perceptual hashes differ in."""
    return (a ^ b).bit_count()


def is_asset_ref(ref: str) -> bool:
    """Whether `ref` names a stored asset (other parsers keep a source URL in `asset_ref`, never fetched)."""
    return bool(_ASSET_REF.fullmatch(ref))
