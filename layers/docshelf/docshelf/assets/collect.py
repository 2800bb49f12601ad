"""One asset per distinct image of a document, in reading order.

Exact repeats share a name by content addressing. A near-duplicate (the same logo re-encoded, scaled or
re-compressed on each page) maps to the first such image's asset: both its pHash and its dHash are within
`NEAR_DUPLICATE_BITS` of that image's (of 64 bits each) and its aspect ratio within 10%. Re-encoding or rescaling
moves a few bits (tests/unit/assets); unrelated pictures differ in about half of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docshelf.assets.hashing import hamming
from docshelf.assets.prepare import PreparedImage
from docshelf.model import Image

NEAR_DUPLICATE_BITS = 4
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
        self, prepared: PreparedImage | None, *, page: int, alt_text: str = "", caption: str = ""
    ) -> Image | None:
        """The Image block of an extracted image, or None when it is decorative (`prepared` None) and says nothing."""
        ref = self.add(prepared) if prepared is not None else ""
        if not ref and not (alt_text.strip() or caption.strip()):
            return None
        width, height = self.sizes.get(ref, (None, None))
        return Image(page=page, alt_text=alt_text, caption=caption, asset_ref=ref, width=width, height=height)


def _near(seen: _Seen, image: PreparedImage) -> bool:
    ratio = (seen.width / seen.height) / (image.width / image.height)
    return (
        0.9 <= ratio <= 1 / 0.9
        and hamming(seen.phash, image.phash) <= NEAR_DUPLICATE_BITS
        and hamming(seen.dhash, image.dhash) <= NEAR_DUPLICATE_BITS
    )
