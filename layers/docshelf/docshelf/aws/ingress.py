"""Uploads, deletes and URL ingestion on AWS, for the search API's routes (`api/routes_documents.py`).

An upload is a presigned S3 PUT of `<namespace>/<filename>` in the source bucket: SigV4 query signing with the
object's Content-Type and Content-Length among the signed headers, so S3 refuses the PUT (403
SignatureDoesNotMatch) when the body's length or the declared type differ from what POST /documents allowed. A
presigned POST policy (`content-length-range`) would allow a range; a PUT with signed headers allows exactly the
declared size, which is what the route checked against the limit, and is the method the contract names. The upload
then flows like any object: EventBridge, ParseQueue, parse, chunk, publish.

A delete removes the object (a delete marker in the versioned bucket), whose event removes the document. A URL
becomes a `fetch` message on the ParseQueue; the ParseFunction fetches it (`aws/web_fetch.py`).
"""

from __future__ import annotations

import json
from typing import Any

from docshelf.api.ingress import UploadTarget
from docshelf.aws.events import FETCH_MESSAGE_KIND
from docshelf.aws.services import AwsServices

UPLOAD_URL_SECONDS = 900


class AwsIngress:
    def __init__(self, services: AwsServices) -> None:
        self.services = services

    @property
    def max_upload_bytes(self) -> int:
        return self.services.settings.pipeline.limits.max_bytes

    def upload_target(self, namespace: str, filename: str, content_type: str, size: int) -> UploadTarget:
        params = {
            "Bucket": self.services.settings.source_bucket,
            "Key": f"{namespace}/{filename}",
            "ContentType": content_type,
            "ContentLength": size,
        }
        url = self._presigner().generate_presigned_url("put_object", Params=params, ExpiresIn=UPLOAD_URL_SECONDS)
        return UploadTarget(str(url), headers={"Content-Type": content_type}, expires_in=UPLOAD_URL_SECONDS)

    def delete_document(self, namespace: str, source_key: str) -> None:
        self.services.s3.delete_object(Bucket=self.services.settings.source_bucket, Key=f"{namespace}/{source_key}")

    def queue_url(self, namespace: str, url: str, source_key: str) -> None:
        queue = self.services.settings.parse_queue_url
        message = {"kind": FETCH_MESSAGE_KIND, "namespace": namespace, "url": url, "source_key": source_key}
        self.services.send(queue, json.dumps(message))

    def _presigner(self) -> Any:
        """An S3 client that signs with SigV4 (botocore still presigns with SigV2 by default in us-east-1, which
        signs no Content-Length)."""
        import boto3
        from botocore.config import Config

        region = self.services.settings.region or None
        return boto3.client("s3", region_name=region, config=Config(signature_version="s3v4"))
