"""An S3 bucket (under an optional prefix) as an object store; the client is injected or created lazily."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from docshelf.errors import StorageError
from docshelf.store.fetch import GET_WORKERS

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_MISSING = ("NoSuchKey", "404", "NotFound")
_TAKEN = ("PreconditionFailed", "412")
_CONFLICT = ("ConditionalRequestConflict", "409")  # another conditional write of the key is in flight
_CONFLICT_RETRIES = 5


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
            from botocore.config import Config

            # As many connections as the embedded index fetches objects at once (botocore keeps 10).
            self._client = boto3.client("s3", config=Config(max_pool_connections=GET_WORKERS))
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

    def create(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> bool:
        """A conditional put (If-None-Match: *), which S3 refuses with 412 when the key exists."""
        from botocore.exceptions import ClientError

        for attempt in range(_CONFLICT_RETRIES + 1):
            try:
                self.client.put_object(
                    Bucket=self.bucket, Key=self._key(key), Body=data, ContentType=content_type, IfNoneMatch="*"
                )
            except ClientError as error:
                code = error.response.get("Error", {}).get("Code")
                if code in _TAKEN:
                    return False
                if code not in _CONFLICT or attempt == _CONFLICT_RETRIES:
                    raise
                time.sleep(0.05 * 2**attempt)
            else:
                return True
        raise AssertionError("unreachable")

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._key(key))

    def list(self, prefix: str) -> Iterator[str]:
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self.prefix + prefix):
            for entry in page.get("Contents", []):
                yield entry["Key"][len(self.prefix) :]
