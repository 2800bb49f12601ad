"""Where a web page the ParseFunction fetched (`aws/web_fetch.py`) came from: its URL and fetch time, kept in the
stored object's metadata and in the page's fetch record, read back by the parse and chunk stages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.pipeline.web_ingest import WEB_PREFIX, previous_fetch

if TYPE_CHECKING:
    from docshelf.aws.events import ObjectEvent
    from docshelf.aws.services import AwsServices

URL_METADATA = "docshelf-source-url"
FETCHED_AT_METADATA = "docshelf-fetched-at"


def web_source(services: AwsServices, event: ObjectEvent) -> tuple[str, str]:
    """(URL, fetch time) from the metadata of the object version the event names."""
    if event.version_id:
        head = services.s3.head_object(Bucket=event.bucket, Key=event.key, VersionId=event.version_id)
    else:
        head = services.s3.head_object(Bucket=event.bucket, Key=event.key)
    metadata = {str(name).lower(): str(value) for name, value in (head.get("Metadata") or {}).items()}
    return metadata.get(URL_METADATA, ""), metadata.get(FETCHED_AT_METADATA, "")


def recorded_web_source(services: AwsServices, namespace: str, source_key: str, revision: str) -> tuple[str, str]:
    """(URL, fetch time) of the fetch that gave a web page these bytes, from its fetch record (the parse cache holds
    no URL); empty when the key is not a web page's or another fetch has replaced the record since."""
    if not source_key.startswith(WEB_PREFIX):
        return "", ""
    record = previous_fetch(services.store, namespace, source_key)
    if record.get("sha256") != revision:
        return "", ""
    return record.get("final_url", ""), record.get("fetched_at", "")
