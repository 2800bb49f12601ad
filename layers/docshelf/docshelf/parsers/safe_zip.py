"""Opening zip packages (OOXML, ODF, EPUB) safely: the one place a zip is opened.

Every member is checked from the central directory (count, declared sizes, compression ratios) before a single
byte is inflated. zipfile returns no more than a member's declared size and fails its CRC check when the data
holds more, but one unbounded read() inflates the whole stream before truncating it: `read_member` therefore
reads in 1 MiB steps, and `check_package` streams every member the same way (a lying one ends as
CorruptDocumentError) before a library that reads members whole is given the package.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import TYPE_CHECKING

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EncryptedDocumentError

if TYPE_CHECKING:
    from docshelf.parsers.base import ParseLimits

MAX_MEMBERS = 20_000
# Repetitive XML legitimately compresses well; the ratio only matters once a member's expanded size does.
RATIO_CHECK_FLOOR_BYTES = 1024 * 1024
_READ_CHUNK = 1024 * 1024
_EOCD = b"PK\x05\x06"
_EOCD_SEARCH = 22 + 65_535
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, zlib.error, NotImplementedError)


def open_zip(data: bytes, limits: ParseLimits, *, what: str, check_sizes: bool = True) -> zipfile.ZipFile:
    """`data` as an open zip archive whose central directory is within the limits (its member count always; its
    members' declared sizes and ratios unless `check_sizes` is False, for a caller that reads only names, or checks
    each member it reads with `member_too_large`).

    Raises DocumentTooLargeError for a zip bomb and CorruptDocumentError for an unreadable archive.
    """
    declared_members = _declared_member_count(data)
    if declared_members > MAX_MEMBERS:
        raise DocumentTooLargeError(f"{what} has {declared_members} zip members (limit {MAX_MEMBERS})")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_ERRORS as exc:
        raise CorruptDocumentError(f"{what} is not a readable zip package: {exc}") from exc
    try:
        if check_sizes:
            check_members(archive.infolist(), limits, what=what)
    except DocumentTooLargeError:
        archive.close()
        raise
    return archive


def check_members(members: list[zipfile.ZipInfo], limits: ParseLimits, *, what: str) -> None:
    """Raise DocumentTooLargeError when the declared sizes or compression ratios are over the limits."""
    if len(members) > MAX_MEMBERS:
        raise DocumentTooLargeError(f"{what} has {len(members)} zip members (limit {MAX_MEMBERS})")
    expanded = 0
    for member in members:
        expanded += member.file_size
        if expanded > limits.max_decompressed_bytes:
            raise DocumentTooLargeError(
                f"{what} expands to more than {limits.max_decompressed_bytes} bytes "
                f"(reached at member {member.filename!r}, declaring {member.file_size}; zip bomb guard)"
            )
        problem = member_too_large(member.file_size, member.compress_size, limits)
        if problem:
            raise DocumentTooLargeError(f"{what} member {member.filename!r} {problem}")


def member_too_large(size: int, compressed: int, limits: ParseLimits) -> str:
    """Why a member declaring `size` bytes from `compressed` is a zip bomb, or ''."""
    ratio = size / max(compressed, 1)
    if size > RATIO_CHECK_FLOOR_BYTES and ratio > limits.max_compression_ratio:
        return f"has a compression ratio of {ratio:.0f} (limit {limits.max_compression_ratio:g}; zip bomb guard)"
    return ""


def read_member(archive: zipfile.ZipFile, name: str, limits: ParseLimits, *, what: str, at_most: int = -1) -> bytes:
    """A member's bytes (its first `at_most` when given), streamed and capped at its checked declared size."""
    try:
        info = archive.getinfo(name)
    except KeyError as exc:
        raise CorruptDocumentError(f"{what} has no {name!r}") from exc
    cap = min(info.file_size, limits.max_decompressed_bytes)
    wanted = cap if at_most < 0 else min(at_most, cap)
    try:
        content = _read_capped(archive, info, wanted, cap)
    except _ZIP_ERRORS as exc:
        if "encrypted" in str(exc).lower() or "password" in str(exc).lower():
            raise EncryptedDocumentError(f"{what} member {name!r} is encrypted") from exc
        raise CorruptDocumentError(f"{what} member {name!r} is unreadable: {exc}") from exc
    return content


def _read_capped(archive: zipfile.ZipFile, info: zipfile.ZipInfo, wanted: int, cap: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    with archive.open(info) as member:
        while total < wanted:
            chunk = member.read(min(_READ_CHUNK, wanted - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
        if wanted == cap and member.read(1):
            raise CorruptDocumentError(f"member {info.filename!r} inflates past its declared {info.file_size} bytes")
    return b"".join(chunks)


def check_package(data: bytes, limits: ParseLimits, *, what: str, required: tuple[str, ...] = ()) -> None:
    """Validate a package before handing its bytes to a library that opens the zip itself.

    Every member is inflated once, streaming, so that a damaged member (or one whose data does not match its
    declared size) is reported here rather than from deep inside the library.
    """
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
    except _ZIP_ERRORS as exc:
        return f"{type(exc).__name__}: {exc}"


def _declared_member_count(data: bytes) -> int:
    """The member count of the end-of-central-directory record (0 when absent), read before zipfile builds
    one object per member: a few MB of central directory can declare millions of them."""
    start = data.rfind(_EOCD, max(0, len(data) - _EOCD_SEARCH))
    if start < 0 or start + 22 > len(data):
        return 0
    (count,) = struct.unpack_from("<H", data, start + 10)
    if count == 0xFFFF and start >= 20 and data[start - 20 : start - 16] == b"PK\x06\x07":
        (zip64_offset,) = struct.unpack_from("<Q", data, start - 12)
        if zip64_offset + 40 <= len(data) and data[zip64_offset : zip64_offset + 4] == b"PK\x06\x06":
            (count,) = struct.unpack_from("<Q", data, zip64_offset + 32)
    return int(count)
