"""A source file's bytes and sha256, read within a size limit, or the document's error saying why not."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from docshelf.errors import DocumentTooLargeError, UnreadableSourceError, VanishedSourceError

READ_BLOCK_BYTES = 1 << 20


def read_source(path: Path, max_bytes: int | None = None) -> bytes:
    """A regular file's bytes, or a DocumentError saying why not (it vanished, is no longer a file, cannot be read,
    or is over `max_bytes`: told by the file system before a byte is read, and the read stops one byte past it).
    Opened without blocking, so a file replaced by a FIFO fails instead of hanging the batch."""
    with _opened(path, max_bytes) as (file, size):
        try:
            data = file.read() if max_bytes is None else file.read(max_bytes + 1)
        except MemoryError:
            raise DocumentTooLargeError(f"not enough memory to read its {size} bytes") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise DocumentTooLargeError(f"over the limit of {max_bytes} bytes (it grew while being read)")
    return data


def hash_source(path: Path, max_bytes: int | None = None) -> str:
    """The sha256 of a regular file's bytes, read in blocks (the same checks and errors as `read_source`)."""
    digest = hashlib.sha256()
    read = 0
    with _opened(path, max_bytes) as (file, _size):
        while block := file.read(READ_BLOCK_BYTES):
            read += len(block)
            if max_bytes is not None and read > max_bytes:
                raise DocumentTooLargeError(f"over the limit of {max_bytes} bytes (it grew while being read)")
            digest.update(block)
    return digest.hexdigest()


@contextmanager
def _opened(path: Path, max_bytes: int | None) -> Iterator[tuple[BinaryIO, int]]:
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise VanishedSourceError("the file was removed before it could be read") from None
    except OSError as error:
        raise UnreadableSourceError(f"cannot open the file: {error.strerror}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableSourceError("no longer a regular file")
        if max_bytes is not None and info.st_size > max_bytes:
            raise DocumentTooLargeError(f"{info.st_size} bytes is over the limit of {max_bytes}")
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            yield file, info.st_size
    except OSError as error:
        raise UnreadableSourceError(f"cannot read the file: {error.strerror}") from None
    finally:
        os.close(descriptor)
