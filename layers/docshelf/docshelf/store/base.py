from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol


class ObjectStore(Protocol):
    """Bytes by key, `/`-separated; a missing key reads as None."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None: ...

    def create(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> bool:
        """Write the object only if no object has the key; False (nothing written) when one has."""
        ...

    def delete(self, key: str) -> None: ...

    def list(self, prefix: str) -> Iterator[str]: ...
