"""The client's retries against a loopback server that answers 429/503 before it succeeds, and what is not
retried."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from docshelf.client import DocshelfApiError, DocshelfClient, Retry
from docshelf.client.transport import Transport


class Script:
    """Statuses to answer in order (then 200), and every request seen."""

    def __init__(self, statuses: list[int], retry_after: str | None = None) -> None:
        self.statuses = statuses
        self.retry_after = retry_after
        self.seen: list[dict[str, Any]] = []


def handler_for(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.seen_request(json.loads(self.rfile.read(length) or b"{}"))
            status = script.statuses.pop(0) if script.statuses else 200
            body = {"message": "busy"} if status != 200 else {"evidence_text": "[1] a.md\nA", "results": []}
            data = json.dumps(body).encode()
            self.send_response(status)
            if status == 429 and script.retry_after is not None:
                self.send_header("Retry-After", script.retry_after)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def seen_request(self, body: Any) -> None:
            script.seen.append({"body": body, "authorization": self.headers.get("Authorization")})

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script([])
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(script))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", script
    finally:
        httpd.shutdown()
        httpd.server_close()


def client_for(url: str, sleeps: list[float], attempts: int = 4) -> DocshelfClient:
    transport = Transport(retry=Retry(attempts=attempts, backoff_s=0.5), sleep=sleeps.append)
    return DocshelfClient(url, token="jwt", transport=transport)


def test_429_and_5xx_are_retried_with_backoff(server: tuple[str, Script]) -> None:
    url, script = server
    script.statuses = [503, 429, 502]
    sleeps: list[float] = []
    result = client_for(url, sleeps).search("pump", namespace="demo")
    assert result.evidence_text.startswith("[1] a.md") and len(script.seen) == 4
    assert len(sleeps) == 3 and all(0 <= delay <= 0.5 * 2**n for n, delay in enumerate(sleeps))
    assert all(seen["authorization"] == "Bearer jwt" for seen in script.seen)
    assert all(seen["body"] == {"namespace": "demo", "query": "pump"} for seen in script.seen)


def test_retry_after_is_honoured(server: tuple[str, Script]) -> None:
    url, script = server
    script.statuses, script.retry_after = [429], "2"
    sleeps: list[float] = []
    client_for(url, sleeps).search("pump", namespace="demo")
    assert sleeps == [2.0]


def test_the_last_failure_is_raised_once_retries_run_out(server: tuple[str, Script]) -> None:
    url, script = server
    script.statuses = [503, 503, 503]
    sleeps: list[float] = []
    with pytest.raises(DocshelfApiError) as failed:
        client_for(url, sleeps, attempts=3).search("pump", namespace="demo")
    assert failed.value.status == 503 and failed.value.message == "busy" and len(script.seen) == 3


def test_client_errors_are_not_retried(server: tuple[str, Script]) -> None:
    url, script = server
    script.statuses = [403]
    sleeps: list[float] = []
    with pytest.raises(DocshelfApiError) as refused:
        client_for(url, sleeps).search("pump", namespace="demo")
    assert refused.value.status == 403 and len(script.seen) == 1 and sleeps == []


def test_an_unreachable_server_is_an_api_error_after_retries() -> None:
    sleeps: list[float] = []
    with pytest.raises(DocshelfApiError) as failed:
        client_for("http://127.0.0.1:9", sleeps, attempts=2).search("pump", namespace="demo")
    assert failed.value.status == 0 and "cannot reach" in failed.value.message and len(sleeps) == 1
