"""Bulk publishing against a fake client: byte caps, retries with backoff, per-document failures."""

from __future__ import annotations

import json
from typing import Any

import pytest
from opensearchpy.exceptions import ConnectionError as TransportConnectionError
from opensearchpy.exceptions import TransportError

from docshelf.errors import IndexBackendError
from docshelf.index.opensearch.bulk import Backoff, BulkAction, BulkWriter, call_with_retries


class FakeBulkClient:
    """Answers `bulk` from a script: an exception to raise, or a status per item (200 unless listed)."""

    def __init__(self, script: list[Any] | None = None) -> None:
        self.script = list(script or [])
        self.requests: list[tuple[list[dict[str, Any]], dict[str, str]]] = []

    def bulk(self, *, body: bytes, params: dict[str, str]) -> dict[str, Any]:
        lines = [json.loads(line) for line in body.decode().splitlines()]
        actions = [line for line in lines if "index" in line or "delete" in line]
        self.requests.append((actions, params))
        step = self.script.pop(0) if self.script else {}
        if isinstance(step, Exception):
            raise step
        items = []
        for action in actions:
            kind = next(iter(action))
            status = step.get(action[kind]["_id"], 201)
            result: dict[str, Any] = {"_id": action[kind]["_id"], "status": status}
            if status >= 300:
                result["error"] = {"type": "rejected" if status == 429 else "mapper_parsing_exception", "reason": "no"}
            items.append({kind: result})
        return {"errors": any(item[next(iter(item))]["status"] >= 300 for item in items), "items": items}


def no_wait() -> Backoff:
    waits: list[float] = []
    return Backoff(max_attempts=4, base_seconds=0.5, sleep=waits.append)


def action(doc_id: str, owner: str = "d1", size: int = 10) -> BulkAction:
    return BulkAction("index", doc_id, "ns", owner, {"text": "x" * size})


def test_batches_respect_the_byte_cap_and_refresh_only_the_last() -> None:
    client = FakeBulkClient()
    actions = [action(f"c{i}", size=100) for i in range(10)]
    size = len(actions[0].encode("idx"))
    outcome = BulkWriter(client, max_batch_bytes=size * 3, backoff=no_wait()).write("idx", actions, refresh="wait_for")
    assert outcome.failures == {}
    assert [len(sent) for sent, _ in client.requests] == [3, 3, 3, 1]
    assert [params["refresh"] for _, params in client.requests] == ["false", "false", "false", "wait_for"]
    assert client.requests[0][0][0] == {"index": {"_index": "idx", "_id": "c0", "routing": "ns"}}


def test_an_oversized_action_goes_alone() -> None:
    client = FakeBulkClient()
    BulkWriter(client, max_batch_bytes=50, backoff=no_wait()).write("idx", [action("a"), action("b", size=500)])
    assert [len(sent) for sent, _ in client.requests] == [1, 1]


@pytest.mark.parametrize("error", [TransportError(429, "too_many_requests"), TransportError(503, "unavailable"),
                                   TransportConnectionError("N/A", "refused", None)])  # fmt: skip
def test_retryable_request_errors_are_retried_with_backoff(error: Exception) -> None:
    client = FakeBulkClient([error, error])
    backoff = no_wait()
    outcome = BulkWriter(client, backoff=backoff).write("idx", [action("c0"), action("c1")])
    assert outcome.failures == {}
    assert len(client.requests) == 3


def test_a_request_that_keeps_failing_fails_its_documents() -> None:
    client = FakeBulkClient([TransportError(503, "unavailable")] * 10)
    outcome = BulkWriter(client, backoff=no_wait()).write("idx", [action("c0", "d1"), action("c1", "d2")])
    assert set(outcome.failures) == {"d1", "d2"}
    assert len(client.requests) == 4
    assert "503" in outcome.failures["d1"][0]


def test_a_bad_request_is_not_retried() -> None:
    client = FakeBulkClient([TransportError(400, "illegal_argument_exception")])
    outcome = BulkWriter(client, backoff=no_wait()).write("idx", [action("c0")])
    assert len(client.requests) == 1 and list(outcome.failures) == ["d1"]


def test_rejected_items_are_resent_and_a_bad_item_fails_only_its_document() -> None:
    client = FakeBulkClient([{"c1": 429, "c2": 400}, {"c1": 429}, {}])
    actions = [action("c0", "d1"), action("c1", "d1"), action("c2", "d2"), action("c3", "d3")]
    outcome = BulkWriter(client, backoff=no_wait()).write("idx", actions)
    assert list(outcome.failures) == ["d2"]
    assert outcome.failures["d2"] == ["chunk c2: mapper_parsing_exception: no"]
    assert [[a["index"]["_id"] for a in sent] for sent, _ in client.requests] == [
        ["c0", "c1", "c2", "c3"],
        ["c1"],
        ["c1"],
    ]


def test_items_rejected_on_every_attempt_fail_their_document() -> None:
    client = FakeBulkClient([{"c1": 429}] * 10)
    outcome = BulkWriter(client, backoff=no_wait()).write("idx", [action("c0", "d1"), action("c1", "d2")])
    assert list(outcome.failures) == ["d2"] and len(client.requests) == 4


def test_deleting_a_missing_chunk_is_not_a_failure() -> None:
    client = FakeBulkClient([{"gone": 404}])
    outcome = BulkWriter(client, backoff=no_wait()).write("idx", [BulkAction("delete", "gone", "ns", "d1")])
    assert outcome.failures == {}


def test_backoff_grows_and_is_capped() -> None:
    waits: list[float] = []
    backoff = Backoff(max_attempts=10, base_seconds=1.0, max_seconds=4.0, sleep=waits.append)
    for attempt in range(6):
        backoff.wait(attempt)
    assert all(0 <= wait <= min(4.0, 2**attempt) for attempt, wait in enumerate(waits))


def test_call_with_retries_names_what_failed() -> None:
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise TransportError(502, "bad_gateway")
        return "ok"

    assert call_with_retries(flaky, no_wait(), "search") == "ok"

    def broken() -> str:
        raise TransportError(400, "parsing_exception")

    with pytest.raises(IndexBackendError, match="OpenSearch search failed: 400 parsing_exception"):
        call_with_retries(broken, no_wait(), "search")
