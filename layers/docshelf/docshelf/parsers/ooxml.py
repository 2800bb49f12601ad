"""Safe opening of zip-based packages (OOXML, ODF, EPUB): zip-bomb checks before any member is read."""

from __future__ import annotations

import io
import zipfile
import zlib
from typing import TYPE_CHECKING

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError

if TYPE_CHECKING:
    from docshelf.parsers.base import ParseLimits

MAX_MEMBERS = 20_000
# Highly repetitive XML legitimately compresses well; the ratio only matters once the expanded size does.
RATIO_CHECK_FLOOR_BYTES = 16 * 1024 * 1024


def check_zip_limits(archive: zipfile.ZipFile, limits: ParseLimits, *, what: str) -> None:
    """Raise DocumentTooLargeError when the declared expanded size or compression ratio is over the limits.

    zipfile stops reading a member at its declared size (and fails the CRC check beyond it), so the
    declared sizes are a trustworthy bound on what the parsing libraries will inflate.
    """
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise DocumentTooLargeError(f"{what} has {len(members)} zip members (limit {MAX_MEMBERS})")
    expanded = sum(member.file_size for member in members)
    compressed = sum(member.compress_size for member in members)
    if expanded > limits.max_decompressed_bytes:
        raise DocumentTooLargeError(
            f"{what} expands to {expanded} bytes, over the limit of {limits.max_decompressed_bytes}"
        )
    ratio = expanded / max(compressed, 1)
    if expanded > RATIO_CHECK_FLOOR_BYTES and ratio > limits.max_compression_ratio:
        raise DocumentTooLargeError(
            f"{what} has a compression ratio of {ratio:.0f}, over the limit of {limits.max_compression_ratio:g}"
        )


def open_zip(data: bytes, limits: ParseLimits, *, what: str) -> zipfile.ZipFile:
    """Open `data` as a zip archive after the size checks; a broken archive is CorruptDocumentError."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise CorruptDocumentError(f"{what} is not a readable zip package: {exc}") from exc
    try:
        check_zip_limits(archive, limits, what=what)
    except DocumentTooLargeError:
        archive.close()
        raise
    return archive


def check_package(data: bytes, limits: ParseLimits, *, what: str, required: tuple[str, ...] = ()) -> None:
    """Validate a package before handing its bytes to a library that opens the zip itself."""
    with open_zip(data, limits, what=what) as archive:
        names = set(archive.namelist())
        missing = [name for name in required if name not in names]
        if missing:
            raise CorruptDocumentError(f"{what} is missing {', '.join(missing)}")
        bad_member = _first_bad_member(archive)
        if bad_member is not None:
            raise CorruptDocumentError(f"{what} has a damaged zip member {bad_member!r}")


def _first_bad_member(archive: zipfile.ZipFile) -> str | None:
    """The first member whose data cannot be inflated or fails its CRC, or None."""
    try:
        return archive.testzip()
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, NotImplementedError) as exc:
        return f"{type(exc).__name__}: {exc}"
