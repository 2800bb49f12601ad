"""Decoding of the messages the Lambdas receive: S3 EventBridge events (inside SQS) and stage messages.

Messages between stages carry keys and hashes, never document bodies (docs/architecture.md#flow).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Literal
from urllib.parse import unquote_plus

from docshelf.errors import DocshelfError, InvalidNameError
from docshelf.ids import document_id, validate_namespace
from docshelf.versions import STAGE_MESSAGE_VERSION

S3Action = Literal["created", "deleted"]
DETAIL_TYPES: dict[str, S3Action] = {"Object Created": "created", "Object Deleted": "deleted"}


class InvalidEventError(DocshelfError):
    """A message that is not what the function expects: no retry can fix it."""


@dataclass(frozen=True, slots=True)
class ObjectEvent:
    """One S3 object change, decoded from an EventBridge `aws.s3` event."""

    action: S3Action
    bucket: str
    key: str
    namespace: str
    source_key: str
    sequencer: str
    version_id: str = ""
    size: int = 0

    @property
    def document_id(self) -> str:
        return document_id(self.namespace, self.source_key)


def split_key(key: str) -> tuple[str, str]:
    """`<namespace>/<path/file.ext>` -> (namespace, path inside the namespace)."""
    namespace, _, source_key = key.partition("/")
    if not source_key or source_key.endswith("/"):
        raise InvalidNameError(f"object key {key!r} is not <namespace>/<path/to/file>")
    return validate_namespace(namespace), source_key


def decode_object_event(body: str | dict[str, Any]) -> ObjectEvent:
    """An EventBridge S3 event (the SQS body of the EventBridge rule's target).

    Object keys arrive URL-encoded (spaces as `+`), as in every S3 event notification.
    """
    event = json.loads(body) if isinstance(body, str) else body
    if not isinstance(event, dict) or event.get("source") != "aws.s3":
        raise InvalidEventError("not an S3 event from EventBridge")
    action = DETAIL_TYPES.get(str(event.get("detail-type", "")))
    if action is None:
        raise InvalidEventError(f"unexpected S3 event type {event.get('detail-type')!r}")
    detail = event.get("detail") or {}
    try:
        bucket = str(detail["bucket"]["name"])
        obj = detail["object"]
        key = unquote_plus(str(obj["key"]))
    except (KeyError, TypeError) as error:
        raise InvalidEventError(f"S3 event without bucket or object key: {error}") from error
    namespace, source_key = split_key(key)
    return ObjectEvent(
        action=action,
        bucket=bucket,
        key=key,
        namespace=namespace,
        source_key=source_key,
        sequencer=str(obj.get("sequencer") or ""),
        version_id=str(obj.get("version-id") or ""),
        size=int(obj.get("size") or 0),
    )


@dataclass(frozen=True, slots=True)
class StageMessage:
    """Parse -> chunk and chunk -> publish: which revision of which document to carry on with."""

    namespace: str
    document_id: str
    source_key: str
    revision: str
    sequencer: str
    version: int = STAGE_MESSAGE_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, body: str) -> StageMessage:
        try:
            data = json.loads(body)
            message = cls(
                namespace=validate_namespace(str(data["namespace"])),
                document_id=str(data["document_id"]),
                source_key=str(data["source_key"]),
                revision=str(data["revision"]),
                sequencer=str(data.get("sequencer", "")),
                version=int(data.get("version", STAGE_MESSAGE_VERSION)),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidEventError(f"malformed stage message: {error}") from error
        if message.version != STAGE_MESSAGE_VERSION:
            raise InvalidEventError(f"stage message version {message.version} is not {STAGE_MESSAGE_VERSION}")
        if message.document_id != document_id(message.namespace, message.source_key):
            raise InvalidEventError("stage message document_id does not match its namespace and source key")
        return message


RANGE_MESSAGE_KIND = "page_range"


@dataclass(frozen=True, slots=True)
class RangeMessage:
    """ParseQueue: read pages [start, end) of one revision of a long PDF (a shard plan's range), then merge the
    document once every range is in. It names the exact object version, as its S3 event did."""

    namespace: str
    document_id: str
    source_key: str
    revision: str
    sequencer: str
    bucket: str
    key: str
    version_id: str
    start: int
    end: int
    kind: str = RANGE_MESSAGE_KIND
    version: int = STAGE_MESSAGE_VERSION

    @property
    def pages(self) -> str:
        """The range as people count pages: `pages 51-100`."""
        return f"pages {self.start + 1}-{self.end}"

    def object_event(self) -> ObjectEvent:
        """The S3 event that made the plan, for reading the same object version again."""
        return ObjectEvent(
            "created", self.bucket, self.key, self.namespace, self.source_key, self.sequencer, self.version_id
        )

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RangeMessage:
        try:
            message = cls(
                namespace=validate_namespace(str(data["namespace"])),
                document_id=str(data["document_id"]),
                source_key=str(data["source_key"]),
                revision=str(data["revision"]),
                sequencer=str(data.get("sequencer", "")),
                bucket=str(data["bucket"]),
                key=str(data["key"]),
                version_id=str(data.get("version_id", "")),
                start=int(data["start"]),
                end=int(data["end"]),
                version=int(data.get("version", STAGE_MESSAGE_VERSION)),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidEventError(f"malformed page range message: {error}") from error
        if message.version != STAGE_MESSAGE_VERSION or not 0 <= message.start < message.end:
            raise InvalidEventError(f"page range message of version {message.version}, pages {message.pages}")
        if message.document_id != document_id(message.namespace, message.source_key):
            raise InvalidEventError("page range message document_id does not match its namespace and source key")
        return message


FETCH_MESSAGE_KIND = "fetch"


@dataclass(frozen=True, slots=True)
class FetchMessage:
    """ParseQueue: fetch a web page (POST /ingest) into the source bucket as `<namespace>/<source_key>`."""

    namespace: str
    url: str
    source_key: str

    @property
    def document_id(self) -> str:
        return document_id(self.namespace, self.source_key)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FetchMessage:
        try:
            return cls(validate_namespace(str(data["namespace"])), str(data["url"]), str(data["source_key"]))
        except (KeyError, TypeError) as error:
            raise InvalidEventError(f"malformed fetch message: {error}") from error


def decode_parse_message(body: str) -> ObjectEvent | RangeMessage | FetchMessage:
    """A ParseQueue message: an S3 event from EventBridge, a page range of a shard plan, or a page to fetch."""
    try:
        data = json.loads(body)
    except ValueError as error:
        raise InvalidEventError(f"a parse message that is not JSON: {error}") from error
    if isinstance(data, dict) and data.get("kind") == RANGE_MESSAGE_KIND:
        return RangeMessage.from_dict(data)
    if isinstance(data, dict) and data.get("kind") == FETCH_MESSAGE_KIND:
        return FetchMessage.from_dict(data)
    return decode_object_event(data)
