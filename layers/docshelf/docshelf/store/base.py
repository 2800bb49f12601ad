from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol


class ObjectStore(Protocol):
    """Bytes by key, `/`-separated; a missing key reads as None."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None: ...

    def delete(self, key: str) -> None: ...

    def list(self, prefix: str) -> Iterator[str]: ...
