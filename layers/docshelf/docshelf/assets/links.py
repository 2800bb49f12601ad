"""What a search result links to for an image chunk's asset: a file path locally, a presigned GET URL on AWS.

The link is made per search from the chunk's `describes` link (its asset's name) and the document's asset folder
(`keys.asset_prefix`). A presigned URL lives `ASSET_URL_SECONDS`, longer than a cached search response
(`SEARCH_CACHE_TTL_S`, 300 s by default), so a response served from the cache still links to a readable image.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from docshelf.model import Chunk, is_asset_ref

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

ASSET_URL_SECONDS = 3600

AssetLink = Callable[[Chunk, str], str]  # (image chunk, asset name) -> where a reader finds the image


def image_asset(chunk: Chunk) -> str | None:
    """The stored asset an image chunk describes, if any."""
    if chunk.type != "image":
        return None
    return next(
        (link.ref for link in chunk.connect_to if link.relation == "describes" and is_asset_ref(link.ref)), None
    )


def asset_key(chunk: Chunk, name: str) -> str:
    from docshelf.keys import asset_prefix  # with the parser version: imported only once a result is an image

    return asset_prefix(chunk.namespace, chunk.document_id) + name


def local_asset_link(root: str | Path) -> AssetLink:
    base = Path(root).resolve()

    def link(chunk: Chunk, name: str) -> str:
        return str(base.joinpath(*asset_key(chunk, name).split("/")))

    return link


def presigned_asset_link(client: S3Client, bucket: str, *, prefix: str = "") -> AssetLink:
    def link(chunk: Chunk, name: str) -> str:
        params = {"Bucket": bucket, "Key": prefix + asset_key(chunk, name)}
        return client.generate_presigned_url("get_object", Params=params, ExpiresIn=ASSET_URL_SECONDS)

    return link
