"""Image files (PNG, JPEG, GIF, WebP; TIFF with every frame a page) parsed by OCR into paragraphs.

The image's declared size is checked against `ParseLimits` before any pixel is decoded, so a decompression bomb
(a few bytes declaring billions of pixels) ends as `too_large`. Without OCR an image is `needs_ocr`.
"""

from __future__ import annotations

import io
import math
import warnings as python_warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, NeedsOcrError
from docshelf.model import Block
from docshelf.ocr import OcrEngine, OcrSettings, OcrUnavailableError, ocr_settings, shared_engine
from docshelf.ocr.blocks import preload, recognise_page
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf_workers import map_page_ranges, worker_count

# Only a TIFF's frames are pages (a multi-page scan); a GIF's or WebP's are an animation, and a camera JPEG's second
# frame (MPO) the same photo again or its depth map: their first frame is the picture.
PAGED_IMAGE_FORMATS = frozenset({"TIFF"})
# Larger pages are scaled down to this many pixels before OCR (a 600 dpi A4 scan becomes about 350 dpi).
MAX_OCR_PIXELS = 12_000_000
PageResult = tuple[list[Block], str | None] | str


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    frames = _check(data, filename, limits)
    settings = ocr_settings()
    try:
        engine = shared_engine(settings)
        preload(engine, settings)  # before the fork: page workers share the loaded models
    except OcrUnavailableError as exc:
        raise NeedsOcrError(f"{filename!r} is an image: {exc}") from exc

    def read(start: int, end: int) -> list[PageResult]:
        return [_read_frame(data, index, engine, settings) for index in range(start, end)]

    results = map_page_ranges(read, frames, worker_count(frames, pages_per_worker=1), slice_pages=1)
    blocks: list[Block] = []
    warnings: list[str] = []
    for number, result in enumerate(results, start=1):
        if isinstance(result, str):
            warnings.append(f"page {number} could not be read: {result}")
            continue
        blocks.extend(result[0])
        if result[1]:
            warnings.append(result[1])
    lost = [warning for warning in warnings if "could not be read" in warning]
    return ParsedContent(blocks=blocks, page_count=frames, warnings=warnings, truncation="; ".join(lost[:3]))


def _open(data: bytes, filename: str) -> Image.Image:
    try:
        with python_warnings.catch_warnings():
            python_warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # ParseLimits decides
            return Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise DocumentTooLargeError(f"{filename!r}: {exc}") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CorruptDocumentError(f"{filename!r} is not a readable image: {exc}") from exc


def _check(data: bytes, filename: str, limits: ParseLimits) -> int:
    """The number of frames, every one within the pixel limit (sizes come from headers, nothing decoded)."""
    image = _open(data, filename)
    frames = getattr(image, "n_frames", 1) if image.format in PAGED_IMAGE_FORMATS else 1
    if frames > limits.max_pages:
        raise DocumentTooLargeError(f"{frames} pages is over the limit of {limits.max_pages}")
    for index in range(frames):
        try:
            image.seek(index)
        except (EOFError, OSError, ValueError) as exc:
            raise CorruptDocumentError(f"{filename!r}: page {index + 1} of {frames} cannot be read: {exc}") from exc
        width, height = image.size
        if width * height > limits.max_image_pixels:
            raise DocumentTooLargeError(
                f"page {index + 1} is {width}x{height} pixels, over the limit of {limits.max_image_pixels:,}"
            )
    return frames


def _read_frame(data: bytes, index: int, engine: OcrEngine, settings: OcrSettings) -> PageResult:
    try:
        image = Image.open(io.BytesIO(data))
        image.seek(index)
        dpi = _dpi(image)
        page = _grayscale(image)
        if page.width * page.height > MAX_OCR_PIXELS:
            scale = math.sqrt(MAX_OCR_PIXELS / (page.width * page.height))
            page = page.resize((max(1, round(page.width * scale)), max(1, round(page.height * scale))))
            dpi = round(dpi * scale) if dpi else None
        blocks, warning = recognise_page(engine, page, settings, index + 1, dpi=dpi)
        return list[Block](blocks), warning
    except (OSError, SyntaxError, ValueError, RuntimeError) as exc:
        return f"{type(exc).__name__}: {exc}"[:300]


def _grayscale(image: Image.Image) -> Image.Image:
    """The page on white (transparent areas are paper) in 8-bit grey, upright as its EXIF orientation says."""
    image = ImageOps.exif_transpose(image)
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, "white")
        image = Image.alpha_composite(background, rgba)
    return image.convert("L")


def _dpi(image: Image.Image) -> int | None:
    dpi = image.info.get("dpi")
    try:
        value = round(float(dpi[0])) if dpi else 0
    except (TypeError, ValueError, IndexError):
        return None
    return value if 50 <= value <= 2400 else None
