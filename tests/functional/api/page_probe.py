"""Test-only front of `docshelf serve` for the search page's browser tests.

- `/__probe/?...` is the search page with axe-core and probe.js added (same origin, so its CSP allows them);
- routes built on other branches answer recorded responses shaped by /work/helper-notes' API contracts
  (POST /documents, the upload PUT, DELETE /documents/{id}), and an agentic search answers the classic search's
  response plus a recorded plan and steps. Every faked request is kept in `requests` for the test to check.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PROBE_JS = Path(__file__).with_name("probe.js")
StartResponse = Callable[[str, list[tuple[str, str]]], Any]


class ProbeApp:
    def __init__(self, inner: Callable[..., Iterable[bytes]], axe_js: Path, *, recorded: bool = True) -> None:
        """`recorded` False: every route is the server's own (the requests are still kept)."""
        self.inner = inner
        self.axe_js = axe_js
        self.recorded = recorded
        self.requests: list[tuple[str, str, bytes]] = []

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "/")
        if path == "/__probe/axe.js":
            return _reply(start_response, 200, self.axe_js.read_bytes(), "text/javascript")
        if path == "/__probe/probe.js":
            return _reply(start_response, 200, PROBE_JS.read_bytes(), "text/javascript")
        if path == "/__probe/":
            return self._page(environ, start_response)
        body = _body(environ)
        if not self.recorded:
            self.requests.append((method, path + "?" + environ.get("QUERY_STRING", ""), body))
            environ["wsgi.input"] = io.BytesIO(body)
            return self.inner(environ, start_response)
        if method == "POST" and path == "/search" and json.loads(body or b"{}").get("mode") == "agentic":
            return self._agentic(environ, body, start_response)
        fake = _FAKES.get((method, re.sub(r"^/documents/[^/]+$", "/documents/{id}", path)))
        if fake is None:
            environ["wsgi.input"] = io.BytesIO(body)
            return self.inner(environ, start_response)
        self.requests.append((method, path + "?" + environ.get("QUERY_STRING", ""), body))
        status, payload = fake
        return _reply(start_response, status, json.dumps(payload).encode(), "application/json")

    def _page(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        captured: dict[str, Any] = {}
        page = b"".join(self.inner({**environ, "PATH_INFO": "/", "REQUEST_URI": "/"}, _capture(captured)))
        extra = b'<script src="/__probe/axe.js" defer></script><script src="/__probe/probe.js" defer></script>'
        page = page.replace(b"</head>", extra + b"</head>")
        headers = [(k, v) for k, v in captured["headers"] if k.lower() != "content-length"]
        start_response(captured["status"], [*headers, ("Content-Length", str(len(page)))])
        return [page]

    def _agentic(self, environ: dict[str, Any], body: bytes, start_response: StartResponse) -> Iterable[bytes]:
        classic = json.loads(body)
        del classic["mode"]
        data = json.dumps(classic).encode()
        environ.update({"wsgi.input": io.BytesIO(data), "CONTENT_LENGTH": str(len(data))})
        captured: dict[str, Any] = {}
        payload = json.loads(b"".join(self.inner(environ, _capture(captured))))
        self.requests.append(("POST", "/search", body))
        return _reply(start_response, 200, json.dumps(agentic_response(payload)).encode(), "application/json")


def agentic_response(classic: dict[str, Any]) -> dict[str, Any]:
    """The classic response with a recorded two-step plan (contracts.md, issue #24), the results split over it."""
    ids = [result["chunk_id"] for result in classic["results"]]
    steps = [
        {"id": "s1", "action": "search", "query": "stem seal", "depends_on": []},
        {"id": "s2", "action": "navigate", "query": "3 Maintenance", "depends_on": ["s1"]},
    ]
    return {
        **classic,
        "mode": "agentic",
        "run_id": "run-recorded-1",
        "truncated": False,
        "tokens_used": 420,
        "budget_tokens": 2000,
        "plan": {"planner": "rules", "fallback_reason": None, "steps": steps},
        "steps": [
            {**steps[0], "status": "done", "result_ids": ids[:2], "tokens": 300, "latency_ms": 12.5},
            {**steps[1], "status": "done", "result_ids": ids[2:3], "tokens": 120, "latency_ms": 3.1},
        ],
        "results": [
            {**result, "step_id": "s1" if n < 2 else "s2", "agent_score": 1.0 / (n + 1), "discovery_score": 0.5}
            for n, result in enumerate(classic["results"])
        ],
    }


_FAKES: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {
    ("POST", "/documents"): (
        201,
        {
            "document_key": "demo/dropped.txt",
            "upload": {"url": "/uploads?namespace=demo&filename=dropped.txt", "method": "PUT", "headers": {}},
            "expires_in": 900,
        },
    ),
    ("PUT", "/uploads"): (200, {"namespace": "demo", "filename": "dropped.txt"}),
    ("DELETE", "/documents/{id}"): (200, {"document_id": "recorded", "deleted": True}),
}


def _body(environ: dict[str, Any]) -> bytes:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    data: bytes = environ["wsgi.input"].read(length) if length else b""
    return data


def _capture(into: dict[str, Any]) -> StartResponse:
    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        into.update(status=status, headers=headers)

    return start_response


def _reply(start_response: StartResponse, status: int, body: bytes, kind: str) -> list[bytes]:
    start_response(f"{status} OK", [("Content-Type", kind), ("Content-Length", str(len(body)))])
    return [body]
