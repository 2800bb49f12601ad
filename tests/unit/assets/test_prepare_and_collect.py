"""Deterministic asset bytes, the size cap, decorative images skipped, near-duplicates mapped to one asset."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

from docshelf.assets.collect import AssetCollector, data_uri_bytes
from docshelf.assets.prepare import MAX_SIDE, MIN_SIDE, prepare_bytes
from docshelf.model import is_asset_ref
from tests.support.image_fixtures import data_uri, encoded, logo, photo


def test_png_and_jpeg_within_the_cap_keep_their_bytes() -> None:
    for data, ext in ((logo(), "png"), (photo(), "jpg")):
        prepared = prepare_bytes(data)
        assert prepared is not None
        assert prepared.data == data
        assert prepared.ref == f"{hashlib.sha256(data).hexdigest()}.{ext}"
        assert is_asset_ref(prepared.ref)


def test_other_formats_are_re_encoded_the_same_way_every_time() -> None:
    gif = encoded(Image.open(io.BytesIO(logo(seed=2))).convert("P"), "GIF")
    bmp = encoded(Image.open(io.BytesIO(photo(seed=2))), "BMP")
    first, second = prepare_bytes(gif), prepare_bytes(gif)
    assert first is not None and second is not None
    assert first.ext == "png" and first.data == second.data  # paletted: lossless
    photo_asset = prepare_bytes(bmp)
    assert photo_asset is not None and photo_asset.ext == "jpg"  # true colour without alpha: a photo
    assert photo_asset.data == prepare_bytes(bmp).data  # type: ignore[union-attr]


def test_large_images_are_scaled_to_the_cap() -> None:
    big = prepare_bytes(logo((MAX_SIDE * 2, MAX_SIDE // 2)))
    assert big is not None
    assert (big.width, big.height) == (MAX_SIDE, MAX_SIDE // 4)
    assert Image.open(io.BytesIO(big.data)).size == (MAX_SIDE, MAX_SIDE // 4)


def test_a_large_jpeg_is_scaled_to_the_cap_the_same_way_every_time() -> None:
    big = photo((MAX_SIDE * 2, MAX_SIDE))
    first, second = prepare_bytes(big), prepare_bytes(big)
    assert first is not None and second is not None
    assert (first.ext, first.width, first.height) == ("jpg", MAX_SIDE, MAX_SIDE // 2)
    assert first.data == second.data


def test_decorative_and_unreadable_images_are_skipped() -> None:
    assert prepare_bytes(logo((MIN_SIDE - 1, 200))) is None
    assert prepare_bytes(logo((400, 2))) is None
    assert prepare_bytes(b"not an image at all") is None
    assert prepare_bytes(logo((MIN_SIDE, MIN_SIDE))) is not None


def test_near_duplicates_map_to_the_first_asset_and_distinct_images_stay_apart() -> None:
    collector = AssetCollector()
    first = collector.add(prepare_bytes(logo(seed=3)))  # type: ignore[arg-type]
    again = collector.add(prepare_bytes(logo(seed=3)))  # type: ignore[arg-type]
    jpeg_copy = collector.add(prepare_bytes(logo(seed=3, fmt="JPEG")))  # type: ignore[arg-type]
    other = collector.add(prepare_bytes(logo(seed=4)))  # type: ignore[arg-type]
    assert first == again == jpeg_copy
    assert other != first
    assert list(collector.assets) == [first, other]


def test_data_uris_decode_and_other_sources_do_not() -> None:
    png = logo()
    assert data_uri_bytes(data_uri(png)) == png
    assert data_uri_bytes("data:image/svg+xml,%3Csvg%3E%3C/svg%3E") == b"<svg></svg>"
    assert data_uri_bytes("data:text/html;base64,PGI+") is None
    assert data_uri_bytes("https://example.com/a.png") is None
