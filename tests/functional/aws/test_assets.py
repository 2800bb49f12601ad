"""Image assets through the moto pipeline: the parse stage keeps them beside its cache, the chunk stage places them
in the document's folder of the artifacts bucket, the search API links an image chunk to a presigned GET URL of
its asset, and deleting the source object removes them."""

from __future__ import annotations

import hashlib
from urllib.parse import urlparse

import requests

from docshelf.ids import document_id, sha256_hex
from docshelf.keys import asset_prefix, parsed_asset_prefix
from tests.functional.aws.harness import Pipeline
from tests.support.image_fixtures import docx_with_pictures, logo, photo

LOGO = logo(seed=9)
PHOTO = photo(seed=9)
NAMES = sorted(f"{hashlib.sha256(data).hexdigest()}.{ext}" for data, ext in ((LOGO, "png"), (PHOTO, "jpg")))


def test_assets_are_stored_linked_presigned_and_deleted(pipeline: Pipeline) -> None:
    manual = docx_with_pictures([(LOGO, "ACME logo"), (PHOTO, "Photo of the zirconium impeller")])
    pipeline.upload("demo/manual.docx", manual)
    pipeline.drain()
    store = pipeline.services["publish"].store
    folder = asset_prefix("demo", document_id("demo", "manual.docx"))
    assert sorted(key[len(folder) :] for key in store.list(folder)) == NAMES
    assert len(list(store.list(parsed_asset_prefix(sha256_hex(manual))))) == 2

    body = pipeline.search("zirconium impeller photo", top_k=3)
    image = next(result for result in body["results"] if result["chunk_type"] == "image")
    url = image["asset"]
    parsed = urlparse(url)
    assert parsed.path.endswith(f"/{folder}{NAMES[1] if NAMES[1].endswith('.jpg') else NAMES[0]}")
    assert "Signature=" in parsed.query or "X-Amz-Signature=" in parsed.query
    assert f"[image: {url}]" in body["evidence_text"]
    fetched = requests.get(url, timeout=5)
    assert fetched.status_code == 200 and fetched.content == PHOTO

    pipeline.remove("demo/manual.docx")
    pipeline.drain()
    assert list(store.list(folder)) == []
    assert list(store.list(parsed_asset_prefix(sha256_hex(manual)))) == []
