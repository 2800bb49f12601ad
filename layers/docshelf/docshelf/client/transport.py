"""HTTP for the client: one keep-alive connection per thread, retries with backoff on 429, 5xx and dropped
connections, and the API's JSON errors raised as `DocshelfApiError`. Standard library only; http.client (which
loads ssl and OpenSSL) and random are imported at the first request, not with the client."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import http.client

RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 30.0


class DocshelfApiError(Exception):
    """An answer outside 2xx: `status`, the API's `message` and, for a 400, the invalid fields (`errors`)."""

    def __init__(self, status: int, message: str, errors: list[dict[str, str]] | None = None) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message
        self.errors = errors or []


class Signer(Protocol):
    def headers(self, method: str, url: str, body: bytes, headers: Mapping[str, str]) -> dict[str, str]:
        """The headers that authorize this request (Authorization and whatever the scheme signs)."""


@dataclass(frozen=True, slots=True)
class Retry:
    attempts: int = 4  # the first try and three retries
    backoff_s: float = 0.25  # doubled each retry, with full jitter; a Retry-After header takes precedence
    max_backoff_s: float = 8.0

    def delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after is not None:
            try:
                return min(max(float(retry_after), 0.0), MAX_RETRY_AFTER_S)
            except ValueError:
                pass
        import random

        return random.uniform(0, min(self.max_backoff_s, self.backoff_s * 2**attempt))


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class Transport:
    def __init__(
        self,
        *,
        timeout_s: float = 30.0,
        retry: Retry | None = None,
        sleep: Callable[[float], None] = time.sleep,
        user_agent: str = "docshelf-client/1",
    ) -> None:
        self.timeout_s = timeout_s
        self.retry = retry or Retry()
        self._sleep = sleep
        self._user_agent = user_agent
        self._local = threading.local()

    def request(
        self,
        method: str,
        url: str,
        *,
        body: bytes = b"",
        headers: Mapping[str, str] | None = None,
        signer: Signer | None = None,
    ) -> Answer:
        """The answer (2xx), after retrying what is retried; DocshelfApiError for any other status."""
        import http.client

        sent = {"User-Agent": self._user_agent, "Accept": "application/json", **(headers or {})}
        if signer is not None:
            sent.update(signer.headers(method, url, body, sent))
        attempt = 0
        while True:
            try:
                answer = self._send(method, url, body, sent)
            except (ConnectionError, TimeoutError, http.client.HTTPException, OSError) as error:
                if attempt + 1 >= self.retry.attempts:
                    raise DocshelfApiError(0, f"cannot reach {_origin(url)}: {error}") from error
                self._sleep(self.retry.delay(attempt, None))
                attempt += 1
                continue
            if answer.status in RETRIED_STATUSES and attempt + 1 < self.retry.attempts:
                self._sleep(self.retry.delay(attempt, answer.headers.get("retry-after")))
                attempt += 1
                continue
            if answer.status >= 400:
                raise _api_error(answer)
            return answer

    def _send(self, method: str, url: str, body: bytes, headers: Mapping[str, str]) -> Answer:
        parts = urlsplit(url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection = self._connection(parts.scheme, parts.netloc)
        try:
            connection.request(method, target or "/", body=body or None, headers=dict(headers))
            response = connection.getresponse()
            data = response.read()
        except BaseException:
            self._drop(parts.scheme, parts.netloc)
            raise
        answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        if answer.headers.get("connection", "").lower() == "close":
            self._drop(parts.scheme, parts.netloc)
        return answer

    def _connection(self, scheme: str, netloc: str) -> http.client.HTTPConnection:
        import http.client

        pool: dict[tuple[str, str], http.client.HTTPConnection] = self._local.__dict__.setdefault("pool", {})
        connection = pool.get((scheme, netloc))
        if connection is None:
            kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
            connection = pool[(scheme, netloc)] = kind(netloc, timeout=self.timeout_s)
        return connection

    def _drop(self, scheme: str, netloc: str) -> None:
        pool: dict[tuple[str, str], http.client.HTTPConnection] = self._local.__dict__.setdefault("pool", {})
        connection = pool.pop((scheme, netloc), None)
        if connection is not None:
            connection.close()

    def close(self) -> None:
        for connection in self._local.__dict__.pop("pool", {}).values():
            connection.close()


def _api_error(answer: Answer) -> DocshelfApiError:
    try:
        data = answer.json()
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        errors = data.get("errors")
        return DocshelfApiError(answer.status, data["message"], errors if isinstance(errors, list) else None)
    text = answer.body.decode("utf-8", "replace").strip()[:300]  # S3's XML errors, a proxy's HTML page
    return DocshelfApiError(answer.status, text or f"HTTP {answer.status}")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
