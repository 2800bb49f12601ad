"""An S3 bucket (under an optional prefix) as an object store; the client is injected or created lazily."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from docshelf.errors import StorageError

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_MISSING = ("NoSuchKey", "404", "NotFound")


class S3Store:
    def __init__(self, bucket: str, *, prefix: str = "", client: S3Client | None = None) -> None:
        if not bucket:
            raise StorageError("S3Store needs a bucket name")
        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self._client = client

    @property
    def client(self) -> S3Client:
        if self._client is None:
            import boto3

            self._client = boto3.client("s3")
        return self._client

    def _key(self, key: str) -> str:
        parts = key.split("/")
        if not key or any(part in ("", ".", "..") for part in parts):
            raise StorageError(f"invalid key {key!r}")
        return self.prefix + key

    def get(self, key: str) -> bytes | None:
        from botocore.exceptions import ClientError

        try:
            response = self.client.get_object(Bucket=self.bucket, Key=self._key(key))
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in _MISSING:
                return None
            raise
        return response["Body"].read()

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data, ContentType=content_type)

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._key(key))

    def list(self, prefix: str) -> Iterator[str]:
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self.prefix + prefix):
            for entry in page.get("Contents", []):
                yield entry["Key"][len(self.prefix) :]
