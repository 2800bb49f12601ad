"""A folder as an object store; writes are atomic (temp file, then rename)."""

from __future__ import annotations

import errno
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

from docshelf.errors import StorageError

_TEMPORARY = ".tmp-"
_TOKEN = os.urandom(4).hex()  # with the pid, keeps temporary names apart across hosts sharing a folder
_SERIALS = itertools.count()
_NO_HARD_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK)  # FAT, some network mounts
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)  # os.open adds O_CLOEXEC itself


class LocalStore:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        parts = key.split("/")
        if not key or any(part in ("", ".", "..") for part in parts):
            raise StorageError(f"invalid key {key!r}")
        return self.root.joinpath(*parts)

    def get(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError:
            return None

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        """Write a temporary file beside the object, then rename it over the object. Four system calls, the folder
        made only when missing: the embedded index puts its objects on a thread while the caller analyzes, and
        each return to Python there waits for the GIL (mkstemp and a file object make about twice as many calls,
        and the 100k-chunk bulk build runs about 7% slower with them)."""
        path = self._path(key)
        temporary = self._temporary(path, data)
        try:
            Path(temporary).replace(path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def create(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> bool:
        """A temporary file linked to the object's name, which fails when the name is taken: the object appears
        whole or not at all, and of writers racing for one key exactly one wins."""
        path = self._path(key)
        temporary = self._temporary(path, data)
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
            return self._create_in_place(path, data)
        finally:
            Path(temporary).unlink(missing_ok=True)
        return True

    def link(self, source: str, key: str) -> None:
        """The object `source` under `key` as well, its bytes not written again: a hard link made beside the
        object, then renamed over it, so `key` changes atomically as with `put`; replacing or deleting either
        name later leaves the other as it was (every write is a new file). A copy where there are no hard links."""
        existing, path = self._path(source), self._path(key)
        while True:
            temporary = f"{path.parent}/{_TEMPORARY}{os.getpid()}-{_TOKEN}-{next(_SERIALS)}"
            try:
                os.link(existing, temporary)
                break
            except FileNotFoundError:
                if path.parent.is_dir() or not existing.is_file():
                    raise StorageError(f"no object {source!r} to link") from None
                path.parent.mkdir(parents=True, exist_ok=True)
            except FileExistsError:
                continue
            except OSError as error:
                if error.errno not in _NO_HARD_LINKS:
                    raise
                self.put(key, existing.read_bytes())
                return
        try:
            Path(temporary).replace(path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    @staticmethod
    def _create_in_place(path: Path, data: bytes) -> bool:
        """`create` on a file system without hard links: the object made exclusively and written where it is (a
        reader may see it before it is whole; the change log takes such an entry as unreadable)."""
        try:
            descriptor = os.open(path, _NEW_FILE, 0o666)
        except FileExistsError:
            return False
        _write_all(descriptor, data)
        return True

    def _temporary(self, path: Path, data: bytes) -> str:
        """A new temporary file beside `path` holding `data`."""
        while True:
            temporary = f"{path.parent}/{_TEMPORARY}{os.getpid()}-{_TOKEN}-{next(_SERIALS)}"
            try:
                descriptor = os.open(temporary, _NEW_FILE, 0o666)
                break
            except FileNotFoundError:
                path.parent.mkdir(parents=True, exist_ok=True)
            except FileExistsError:  # left by a crashed writer whose pid came round again
                continue
        try:
            _write_all(descriptor, data)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return temporary

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def list(self, prefix: str) -> Iterator[str]:
        """Keys under `prefix`, walking only the folder the prefix names (the store can hold many objects)."""
        folder = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
        base = self.root.joinpath(*folder.split("/")) if folder else self.root
        if not base.is_dir():
            return
        for path in sorted(base.rglob("*")):
            if path.is_file() and not path.name.startswith(_TEMPORARY):
                key = path.relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    yield key


def _write_all(descriptor: int, data: bytes) -> None:
    """Every byte of `data` to the open file, which is closed after."""
    try:
        unwritten = memoryview(data)
        while unwritten:
            unwritten = unwritten[os.write(descriptor, unwritten) :]
    finally:
        os.close(descriptor)
