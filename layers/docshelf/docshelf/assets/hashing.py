"""64-bit perceptual hashes on numpy and Pillow, bit for bit those of the `imagehash` library (4.3), which would
bring scipy into the parser layer for one 32-point DCT.

pHash: the image in grey at 32x32 (Lanczos), a 2-D DCT-II as `scipy.fftpack.dct` computes it (unnormalised,
`2 * sum x[n] cos(pi k (2n + 1) / 2N)`), the top-left 8x8 coefficients against their median. dHash: the image in
grey at 9x8, each pixel against its left neighbour. Bits are read row by row, the first the most significant,
as `str(imagehash.phash(image))` writes them.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from docshelf.assets import hamming

__all__ = ["dhash", "hamming", "phash"]

HASH_SIZE = 8
_PHASH_SIDE = HASH_SIZE * 4
_N = np.arange(_PHASH_SIDE)
# The first HASH_SIZE rows of the DCT-II matrix: only the low frequencies are kept.
_DCT_ROWS = 2.0 * np.cos(np.pi * np.outer(np.arange(HASH_SIZE), 2 * _N + 1) / (2 * _PHASH_SIDE))


def phash(image: Image.Image) -> int:
    grey = image.convert("L").resize((_PHASH_SIDE, _PHASH_SIDE), Image.Resampling.LANCZOS)
    pixels = np.asarray(grey, dtype=np.float64)
    low = np.round(_DCT_ROWS @ pixels @ _DCT_ROWS.T, 6)  # float noise of exact zeros (flat images) is no signal
    return _bits(low > np.median(low))


def dhash(image: Image.Image) -> int:
    grey = image.convert("L").resize((HASH_SIZE + 1, HASH_SIZE), Image.Resampling.LANCZOS)
    pixels = np.asarray(grey)
    return _bits(pixels[:, 1:] > pixels[:, :-1])


def _bits(flags: np.ndarray) -> int:
    value = 0
    for flag in flags.flatten():
        value = (value << 1) | int(flag)
    return value
