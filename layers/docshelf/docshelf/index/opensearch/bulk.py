"""`_bulk` writes in byte-capped batches with retries, and failures tracked per owning document.

A request that fails with 429, a 5xx or a connection fault is retried whole with exponential backoff;
items rejected with 429 are retried on their own; any other rejected item fails the document it
belongs to and nothing else.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from opensearchpy.exceptions import ConnectionError as TransportConnectionError
from opensearchpy.exceptions import TransportError

from docshelf.batching import sized_batches
from docshelf.errors import IndexBackendError

DEFAULT_MAX_BATCH_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_ATTEMPTS = 6
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})

Refresh = bool | Literal["wait_for"]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BulkAction:
    kind: Literal["index", "delete"]
    doc_id: str
    routing: str
    owner: str  # the document_id this write belongs to; its failure fails that document
    source: Mapping[str, Any] | None = None

    def encode(self, index: str) -> bytes:
        meta = {self.kind: {"_index": index, "_id": self.doc_id, "routing": self.routing}}
        lines = [json.dumps(meta, ensure_ascii=False, separators=(",", ":"))]
        if self.kind == "index":
            lines.append(json.dumps(self.source, ensure_ascii=False, separators=(",", ":")))
        return ("\n".join(lines) + "\n").encode("utf-8")


@dataclass(slots=True)
class Backoff:
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    base_seconds: float = 0.2
    max_seconds: float = 10.0
    sleep: Callable[[float], None] = time.sleep

    def wait(self, attempt: int) -> None:
        """Full jitter: a random wait up to base * 2**attempt, capped."""
        self.sleep(random.uniform(0, min(self.max_seconds, self.base_seconds * 2**attempt)))


def is_retryable(error: Exception) -> bool:
    if isinstance(error, TransportConnectionError):
        return True
    return isinstance(error, TransportError) and error.status_code in RETRYABLE_STATUSES


def call_with_retries(call: Callable[[], T], backoff: Backoff, what: str) -> T:
    for attempt in range(backoff.max_attempts):
        try:
            return call()
        except TransportError as error:
            if not is_retryable(error) or attempt == backoff.max_attempts - 1:
                raise IndexBackendError(f"OpenSearch {what} failed: {_describe(error)}") from error
            backoff.wait(attempt)
    raise AssertionError("unreachable")


def _describe(error: TransportError) -> str:
    return f"{error.status_code} {error.error}".strip()


@dataclass(slots=True)
class BulkOutcome:
    failures: dict[str, list[str]] = field(default_factory=dict)  # owner -> reasons

    def fail(self, owner: str, reason: str) -> None:
        self.failures.setdefault(owner, []).append(reason)


class BulkWriter:
    def __init__(
        self,
        client: Any,
        *,
        max_batch_bytes: int = DEFAULT_MAX_BATCH_BYTES,
        backoff: Backoff | None = None,
    ) -> None:
        self.client = client
        self.max_batch_bytes = max_batch_bytes
        self.backoff = backoff or Backoff()

    def write(self, index: str, actions: Sequence[BulkAction], *, refresh: Refresh = False) -> BulkOutcome:
        """Send every action to `index`; `refresh` applies to the last request (a shard refresh covers earlier
        ones)."""
        outcome = BulkOutcome()
        encoded = [(action, action.encode(index)) for action in actions]
        groups = list(sized_batches(encoded, lambda item: len(item[1]), self.max_batch_bytes))
        for number, group in enumerate(groups):
            self._send(group, outcome, refresh if number == len(groups) - 1 else False)
        return outcome

    def _send(self, group: list[tuple[BulkAction, bytes]], outcome: BulkOutcome, refresh: Refresh) -> None:
        pending = group
        for attempt in range(self.backoff.max_attempts):
            last = attempt == self.backoff.max_attempts - 1
            body = b"".join(data for _, data in pending)
            try:
                response = self.client.bulk(body=body, params={"refresh": _refresh_param(refresh)})
            except TransportError as error:
                if is_retryable(error) and not last:
                    self.backoff.wait(attempt)
                    continue
                for action, _ in pending:
                    outcome.fail(action.owner, f"bulk request failed: {_describe(error)}")
                return
            pending = self._collect(pending, response, outcome, retry_rejected=not last)
            if not pending:
                return
            self.backoff.wait(attempt)

    @staticmethod
    def _collect(
        sent: list[tuple[BulkAction, bytes]], response: Mapping[str, Any], outcome: BulkOutcome, *, retry_rejected: bool
    ) -> list[tuple[BulkAction, bytes]]:
        """Record item failures; return the items rejected for back-pressure (429), to send again."""
        if not response.get("errors"):
            return []
        again: list[tuple[BulkAction, bytes]] = []
        for (action, data), item in zip(sent, response["items"], strict=True):
            result = item[action.kind]
            status = int(result.get("status", 500))
            if status < 300 or (action.kind == "delete" and status == 404):
                continue
            if status == 429 and retry_rejected:
                again.append((action, data))
                continue
            error = result.get("error", {})
            reason = error.get("reason", "") if isinstance(error, dict) else str(error)
            kind = error.get("type", status) if isinstance(error, dict) else status
            outcome.fail(action.owner, f"chunk {action.doc_id}: {kind}: {reason}")
        return again


def _refresh_param(refresh: Refresh) -> str:
    if refresh == "wait_for":
        return "wait_for"
    return "true" if refresh else "false"
