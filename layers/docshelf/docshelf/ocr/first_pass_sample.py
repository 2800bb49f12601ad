"""The part of a page the language-finding first pass reads: three bands, cut between lines.

The first pass only counts scripts (ocr/script.py), yet on a dense page it cost as much as the full pass, the Japanese
model being the slower one: a full page of English at 200 dpi, 0.9-1.0 CPU s each. Three bands of a ninth of the
page's height each (about the top, the middle and the bottom, so a page in two scripts shows both) hold enough letters
to count, and cost a third. Each band's edges move to the quietest row near them, between two lines of text, so no
band starts or ends in half a line that the model would read as noise; the bands are stacked with a blank gap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PIL.Image import Image

BANDS = 3
BAND_SHARE = 1 / 9  # of the page's height, each
# How far an edge may move to find a quiet row, as a share of the band's height.
EDGE_SLACK = 0.25
GAP = 8  # blank pixels between two bands


def sampled_bands(image: Image) -> Image | None:
    """`image`'s three bands stacked, or None for an image too short to be worth cutting."""
    from PIL import Image as PillowImage

    grey = image.convert("L")
    shades = np.asarray(grey, dtype=np.int16)
    height, width = shades.shape
    band = int(height * BAND_SHARE)
    if band < 16:
        return None
    # A row's ink: how far its pixels are from the page's usual shade (dark text on light, or light on dark).
    background = int(np.median(shades))
    ink = np.abs(shades - background).sum(axis=1)
    slack = max(1, int(band * EDGE_SLACK))
    spans = []
    for number in range(BANDS):
        center = int(height * (2 * number + 1) / (2 * BANDS))
        top = _quietest(ink, center - band // 2, slack)
        bottom = _quietest(ink, center + band // 2, slack)
        if bottom > top:
            spans.append((top, bottom))
    stacked = PillowImage.new("L", (width, sum(b - t for t, b in spans) + GAP * (len(spans) - 1)), background)
    at = 0
    for top, bottom in spans:
        stacked.paste(grey.crop((0, top, width, bottom)), (0, at))
        at += bottom - top + GAP
    return stacked


def _quietest(ink: np.ndarray, around: int, slack: int) -> int:
    low, high = max(0, around - slack), min(len(ink), around + slack + 1)
    if low >= high:
        return min(max(around, 0), len(ink))
    return low + int(np.argmin(ink[low:high]))
