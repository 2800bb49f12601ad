from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from docshelf.errors import StorageError


class ObjectStore(Protocol):
    """Bytes by key, `/`-separated; a missing key reads as None."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None: ...

    def create(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> bool:
        """Write the object only if no object has the key; False (nothing written) when one has."""
        ...

    def delete(self, key: str) -> None: ...

    def list(self, prefix: str) -> Iterator[str]: ...


def put_again(
    store: ObjectStore, key: str, data: bytes, *, same_as: str, content_type: str = "application/json"
) -> None:
    """`store.put(key, data)` where `data` are the bytes of the object `same_as`: a store that can give one object
    a second name (`LocalStore.link`, a hard link) does that instead of writing them again; if `same_as` is gone
    by now (the document deleted meanwhile), the bytes are put."""
    link = getattr(store, "link", None)
    if link is not None:
        try:
            link(same_as, key)
            return
        except StorageError:
            pass
    store.put(key, data, content_type=content_type)
