"""One asset per distinct image of a document, in reading order.

Exact repeats share a name by content addressing. A near-duplicate (the same logo re-encoded, scaled or
re-compressed on each page) maps to the first such image's asset: its pHash within `NEAR_DUPLICATE_BITS` of that
image's (of 64), its dHash within `DHASH_GUARD_BITS` (dHash flips more bits on re-compression of flat colour, and
guards against two different pictures whose low frequencies agree), and its aspect ratio within 10%. A JPEG copy of
a flat-colour logo moves 2 pHash and 5 dHash bits (tests/unit/assets); unrelated pictures differ in about half.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote_to_bytes

from docshelf.assets import hamming
from docshelf.model import Image

if TYPE_CHECKING:
    from docshelf.assets.prepare import PreparedImage

NEAR_DUPLICATE_BITS = 6
DHASH_GUARD_BITS = 12
# A document with more distinct images keeps the first ones as assets; the others keep only their text.
MAX_ASSETS_PER_DOCUMENT = 2000


@dataclass(frozen=True, slots=True)
class _Seen:
    ref: str
    width: int
    height: int
    phash: int
    dhash: int


@dataclass(slots=True)
class AssetCollector:
    """The distinct images of one document: `add` names an image's asset, `assets` holds their bytes."""

    assets: dict[str, bytes] = field(default_factory=dict)
    sizes: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    _seen: list[_Seen] = field(default_factory=list)

    def add(self, image: PreparedImage) -> str:
        """The asset `image` is stored as ("" when the document has too many), the first near-duplicate's if
        there is one."""
        ref = image.ref
        if ref in self.assets:
            return ref
        for seen in self._seen:
            if _near(seen, image):
                return seen.ref
        if len(self.assets) >= MAX_ASSETS_PER_DOCUMENT:
            return ""
        self.assets[ref] = image.data
        self.sizes[ref] = (image.width, image.height)
        self._seen.append(_Seen(ref, image.width, image.height, image.phash, image.dhash))
        return ref

    def image(
        self,
        prepared: PreparedImage | None,
        *,
        page: int,
        alt_text: str = "",
        caption: str = "",
        shown: tuple[int | None, int | None] = (None, None),
    ) -> Image | None:
        """The Image block of an extracted image, or None when it is decorative (`prepared` None) and says nothing.
        Its size is the stored asset's in pixels, else `shown` (the size the document displays it at)."""
        ref = self.add(prepared) if prepared is not None else ""
        if not ref and not (alt_text.strip() or caption.strip()):
            return None
        width, height = self.sizes.get(ref, shown)
        return Image(page=page, alt_text=alt_text, caption=caption, asset_ref=ref, width=width, height=height)

    def image_of(self, data: bytes, *, page: int, alt_text: str = "", caption: str = "") -> Image | None:
        """`image` of a picture's file bytes (any format Pillow reads; undecodable bytes are no picture)."""
        from docshelf.assets.prepare import prepare_bytes  # Pillow, only for documents with images

        return self.image(prepare_bytes(data), page=page, alt_text=alt_text, caption=caption)


@dataclass(slots=True)
class ImageSource:
    """Where a markup parser's image references lead: `resolve` gives the bytes of a package member or `data:`
    URI (never a fetched URL), `collector` their assets."""

    resolve: Callable[[str], bytes | None]
    collector: AssetCollector = field(default_factory=AssetCollector)

    def image(self, src: str, *, page: int, alt_text: str = "", caption: str = "") -> Image | bool | None:
        """The Image block of `src`, None when it is decorative and says nothing, False when `src` leads to no
        bytes here (the caller keeps the reference as text)."""
        data = self.resolve(src)
        if data is None:
            return False
        return self.collector.image_of(data, page=page, alt_text=alt_text, caption=caption)


MAX_DATA_URI_BYTES = 20_000_000
_DATA_URI = re.compile(r"data:image/[\w.+-]+((?:;[\w-]+=[^;,]*)*)(;base64)?,", re.I)


def data_uri_bytes(src: str) -> bytes | None:
    """The bytes of a `data:image/...` URI (base64 or percent-encoded); None for anything else."""
    match = _DATA_URI.match(src.strip())
    if match is None or len(src) > MAX_DATA_URI_BYTES * 4 // 3 + 1024:
        return None
    body = src.strip()[match.end() :]
    try:
        return base64.b64decode(body, validate=False) if match.group(2) else unquote_to_bytes(body)
    except (binascii.Error, ValueError):
        return None


def _near(seen: _Seen, image: PreparedImage) -> bool:
    ratio = (seen.width / seen.height) / (image.width / image.height)
    return (
        0.9 <= ratio <= 1 / 0.9
        and hamming(seen.phash, image.phash) <= NEAR_DUPLICATE_BITS
        and hamming(seen.dhash, image.dhash) <= DHASH_GUARD_BITS
    )
