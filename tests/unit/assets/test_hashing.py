"""docshelf's pHash and dHash against the imagehash library (the reference, a dev dependency), bit for bit."""

from __future__ import annotations

import io

import imagehash
import numpy as np
import pytest
from PIL import Image, ImageDraw

from docshelf.assets.hashing import dhash, hamming, phash
from tests.support.image_fixtures import logo, photo


def _images() -> list[Image.Image]:
    rng = np.random.default_rng(7)
    images: list[Image.Image] = [Image.open(io.BytesIO(logo(seed=seed))) for seed in range(6)]
    images += [Image.open(io.BytesIO(photo(seed=seed))) for seed in range(4)]
    images += [Image.fromarray(rng.integers(0, 256, (h, w, 3), dtype=np.uint8)) for h, w in [(33, 47), (300, 90)]]
    images.append(Image.fromarray(rng.integers(0, 256, (64, 64), dtype=np.uint8), mode="L"))
    rgba = Image.new("RGBA", (120, 80), (0, 0, 0, 0))
    ImageDraw.Draw(rgba).text((10, 30), "ACME", fill=(200, 10, 10, 255))
    images.append(rgba)
    images.append(Image.new("RGB", (50, 50), (12, 200, 90)))  # flat: every coefficient but one is zero
    return images


@pytest.mark.parametrize("number", range(15))
def test_phash_and_dhash_equal_imagehash(number: int) -> None:
    image = _images()[number]
    assert f"{phash(image):016x}" == str(imagehash.phash(image))
    assert f"{dhash(image):016x}" == str(imagehash.dhash(image))


def test_rescaled_and_recompressed_copies_stay_near_and_other_images_far() -> None:
    original = Image.open(io.BytesIO(logo(seed=3)))
    rescaled = original.resize((120, 60), Image.Resampling.BILINEAR)
    buffer = io.BytesIO()
    original.save(buffer, format="JPEG", quality=60)
    recompressed = Image.open(io.BytesIO(buffer.getvalue()))
    for copy in (rescaled, recompressed):
        assert hamming(phash(original), phash(copy)) <= 4
        assert hamming(dhash(original), dhash(copy)) <= 4
    others = [Image.open(io.BytesIO(logo(seed=seed))) for seed in (0, 2, 4)]
    assert all(hamming(phash(original), phash(other)) > 10 for other in others)
