"""The images drawn on a PDF page, as assets (docshelf.assets), with where they sit for reading order.

An image drawn smaller than `MIN_DRAWN_POINTS` on either side (bullets, rules, icons) is decorative and skipped
before it is decoded, as is one PDFium cannot decode. JPEG streams (DCTDecode alone) keep their bytes when within
the size cap; other streams are decoded to a bitmap and re-encoded. A page reuses the same image stream for a
repeated logo: a stream's asset is made once per process (`ImageCache`), keyed by its raw bytes' hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

if TYPE_CHECKING:
    from docshelf.assets.prepare import PreparedImage

MIN_DRAWN_POINTS = 24.0  # a third of an inch
MAX_IMAGES_PER_PAGE = 64  # beyond this a page is tiled artwork, not pictures to cite


@dataclass(frozen=True, slots=True)
class PlacedImage:
    page: int
    top: float  # from the top of the page, in points
    area: float  # drawn area, square points
    prepared: PreparedImage


@dataclass(slots=True)
class ImageCache:
    prepared: dict[str, PreparedImage | None] = field(default_factory=dict)


def page_images(page: pdfium.PdfPage, number: int, height: float, cache: ImageCache) -> list[PlacedImage]:
    placed: list[PlacedImage] = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=4):
        if len(placed) >= MAX_IMAGES_PER_PAGE:
            break
        try:
            left, bottom, right, top = obj.get_bounds()
            if min(right - left, top - bottom) < MIN_DRAWN_POINTS:
                continue
            prepared = _prepared(obj, cache)
        except (pdfium.PdfiumError, OSError, ValueError):
            continue
        if prepared is not None:
            placed.append(PlacedImage(number, height - top, (right - left) * (top - bottom), prepared))
    return placed


def _prepared(obj: Any, cache: ImageCache) -> PreparedImage | None:
    raw = bytes(obj.get_data(decode_simple=False))
    key = hashlib.sha256(raw).hexdigest()
    if key in cache.prepared:
        return cache.prepared[key]
    from docshelf.assets.prepare import prepare_bytes, prepare_image  # Pillow, numpy: only for PDFs with images

    if obj.get_filters() == ["DCTDecode"]:
        prepared = prepare_bytes(raw)
    else:
        prepared = prepare_image(obj.get_bitmap(render=False).to_pil())  # PDFium owns the bitmap's buffer
    cache.prepared[key] = prepared
    return prepared
