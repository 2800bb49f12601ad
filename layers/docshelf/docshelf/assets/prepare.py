"""An embedded image's bytes -> the bytes stored as its asset, deterministically.

- Decorative images are skipped: under `MIN_SIDE` pixels on either side (bullets, spacers, rules, icons).
- PNG and JPEG within `MAX_SIDE` pixels per side keep their original bytes.
- Anything else (GIF, BMP, TIFF, WebP, PDF image streams, and PNG/JPEG over the cap) is decoded, scaled to fit
  `MAX_SIDE` (Lanczos) and written as PNG when it has transparency or few colours (paletted, grey, bilevel, or
  at most `PNG_COLOURS` colours: diagrams, charts, logos), else as JPEG at quality `JPEG_QUALITY` (photos).
  Pillow writes both without timestamps, so the same image gives the same bytes, and so the same asset name.
- Images over `MAX_DECODED_PIXELS` are not decoded at all (decompression bombs).

One image is decoded at a time and released once its hashes are taken.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from docshelf.assets.hashing import dhash, phash

MIN_SIDE = 32
MAX_SIDE = 1600
JPEG_QUALITY = 85
MAX_DECODED_PIXELS = 40_000_000
PNG_COLOURS = 256
_KEPT_FORMATS = {"PNG": "png", "JPEG": "jpg"}
_LOSSLESS_MODES = frozenset({"1", "L", "LA", "P", "PA", "RGBA", "I", "I;16"})


@dataclass(frozen=True, slots=True)
class PreparedImage:
    """An image as stored: its bytes, extension, pixel size and perceptual hashes."""

    data: bytes
    ext: str
    width: int
    height: int
    phash: int
    dhash: int

    @property
    def ref(self) -> str:
        """The asset's name, `<sha256 of the stored bytes>.<ext>`."""
        return f"{hashlib.sha256(self.data).hexdigest()}.{self.ext}"


def prepare_bytes(data: bytes) -> PreparedImage | None:
    """The asset of an encoded image (PNG, JPEG, GIF, TIFF, BMP, WebP...); None when it is decorative, too large
    to decode, or not an image Pillow reads."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if _skipped(image.size):
                return None
            original = _KEPT_FORMATS.get(image.format or "")
            if original == "jpg" and max(image.size) > MAX_SIDE:
                image.draft(image.mode, (MAX_SIDE, MAX_SIDE))  # decoded at 1/2, 1/4 or 1/8: less memory, faster
            image.load()
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None
    if original is not None and max(image.size) <= MAX_SIDE:
        return PreparedImage(data, original, *image.size, phash(image), dhash(image))
    return prepare_image(image)


def prepare_image(image: Image.Image) -> PreparedImage | None:
    """The asset of a decoded image (a PDF image object's bitmap); None when it is decorative or too large."""
    if _skipped(image.size):
        return None
    if max(image.size) > MAX_SIDE:
        image = image.copy()
        image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    if image.mode in _LOSSLESS_MODES or "transparency" in image.info or _few_colours(image):
        converted = image if image.mode in ("1", "L", "LA", "P", "RGB", "RGBA") else image.convert("RGBA")
        converted.save(buffer, format="PNG", optimize=False, compress_level=6)
        ext = "png"
    else:
        converted = image.convert("RGB")
        converted.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=False, progressive=False, subsampling=2)
        ext = "jpg"
    return PreparedImage(buffer.getvalue(), ext, *converted.size, phash(converted), dhash(converted))


def _few_colours(image: Image.Image) -> bool:
    """At most `PNG_COLOURS` distinct colours: drawn art (a logo, a chart), which JPEG would smear."""
    return image.getcolors(PNG_COLOURS) is not None


def _skipped(size: tuple[int, int]) -> bool:
    width, height = size
    return min(width, height) < MIN_SIDE or width * height > MAX_DECODED_PIXELS
