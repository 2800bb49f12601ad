"""Format detection from the table in `formats.py`: content first, then file extension, then MIME type."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import PurePosixPath

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EncryptedDocumentError
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.formats import ARCHIVE, BY_EXTENSION, BY_MEDIA_TYPE, FORMATS, PACKAGE_MARKERS, Format
from docshelf.parsers.ole_names import root_names
from docshelf.parsers.safe_zip import open_zip, read_member

_TEXT_FORMATS = frozenset(fmt.name for fmt in FORMATS if fmt.detection in ("markup", "name"))

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
# A flat OpenDocument file is one XML file whose root, office:document, names its media type in office:mimetype,
# after the root's namespace declarations (LibreOffice writes some 2 KB of them).
FLAT_WINDOW = 16_384
OFFICE_NAMESPACE = b"urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_FLAT_ROOT = re.compile(rb"<(?:[\w.-]+:)?document\s[^>]*?\b[\w.-]+:mimetype=\"([^\"<>]{1,100})\"")


def extension_format(filename: str) -> str | None:
    fmt = BY_EXTENSION.get(PurePosixPath(filename).suffix.lower())
    return fmt.name if fmt else None


def media_type_format(media_type: str) -> str | None:
    fmt = BY_MEDIA_TYPE.get(media_type.split(";")[0].strip().lower())
    return fmt.name if fmt else None


def detect_format(
    data: bytes, filename: str, media_type: str | None = None, *, limits: ParseLimits | None = None
) -> str | None:
    """Best guess of the format, or None when nothing recognisable is found.

    `ole` is returned for OLE compound files that are not spreadsheets: encrypted OOXML packages
    and legacy Word/PowerPoint files, which the caller reports precisely. A zip package over `limits`
    raises DocumentTooLargeError before any member is inflated.
    """
    by_name = extension_format(filename)
    by_content = _sniff(data, by_name, limits or ParseLimits(), filename)
    if by_content is not None:
        return by_content
    if by_name is not None:
        return by_name
    if media_type:
        return media_type_format(media_type)
    return None


def _sniff(data: bytes, by_name: str | None, limits: ParseLimits, filename: str) -> str | None:
    head = data[:2048]
    for fmt in FORMATS:
        if fmt.detection == "magic" and _has_magic(fmt, data, head):
            return fmt.name
    if head.startswith(ZIP_MAGIC):
        return _zip_format(data, limits, filename) or by_name
    if head.startswith(OLE_MAGIC):
        return _ole_format(data)
    flat = BY_MEDIA_TYPE.get(flat_mimetype(data) or "")
    return flat.name if flat is not None else _text_format(head, by_name)


def flat_mimetype(data: bytes) -> str | None:
    """The media type a flat OpenDocument file (`.fodt`, `.fods`, `.fodp`: the package as one XML file) names."""
    window = data[:FLAT_WINDOW]
    if OFFICE_NAMESPACE not in window:
        return None
    found = _FLAT_ROOT.search(window)
    return found.group(1).decode("ascii", "replace").strip() if found else None


def _has_magic(fmt: Format, data: bytes, head: bytes) -> bool:
    if not _signed(fmt, data, head):
        return False
    confirm = _CONFIRMED_BY.get(fmt.name)
    return confirm is None or confirm(data)


def _signed(fmt: Format, data: bytes, head: bytes) -> bool:
    if fmt.magic_at:
        return data[fmt.magic_at : fmt.magic_at + len(fmt.magic)] == fmt.magic
    if fmt.magic_within:  # not inside a zip or OLE container, which may store such a file uncompressed near its start
        if head.lstrip().startswith(fmt.magic):
            return True
        return not head.startswith((ZIP_MAGIC, OLE_MAGIC)) and data[: fmt.magic_within].find(fmt.magic) >= 0
    return head.startswith((fmt.magic, *fmt.more_magic))


def _tar_header(data: bytes) -> bool:
    """A tar header's checksum holds: the sum of its bytes, its checksum field counted as spaces."""
    if len(data) < 512:
        return False
    try:
        stored = int(data[148:156].replace(b"\0", b" ").strip() or b"-1", 8)
    except ValueError:
        return False
    return stored == sum(data[:148]) + 8 * 32 + sum(data[156:512])


# Signatures short or late enough to turn up in text (`# About WEBP…`, `ustar` at byte 257, a line opening `BZh`):
# the format's structure around them confirms them.
_CONFIRMED_BY: dict[str, Callable[[bytes], bool]] = {
    "tar": _tar_header,
    "webp": lambda data: data.startswith(b"RIFF"),
    "bzip2": lambda data: data[3:4].isdigit() and data[4:10] in (bytes.fromhex("314159265359"),
                                                                  bytes.fromhex("177245385090")),
}  # fmt: skip


def _zip_format(data: bytes, limits: ParseLimits, filename: str) -> str | None:
    """The package format a zip holds, or ARCHIVE for a zip of documents. A package over the size limits raises
    DocumentTooLargeError; an archive is checked file by file by its parser, which leaves a bomb among its files."""
    what = f"zip package {filename!r}"
    try:
        try:
            archive = open_zip(data, limits, what=what)
        except DocumentTooLargeError:
            with open_zip(data, limits, what=what, check_sizes=False) as names_only:
                if _zip_names_format(names_only, limits, what) != ARCHIVE:
                    raise
            return ARCHIVE
        with archive:
            return _zip_names_format(archive, limits, what)
    except (CorruptDocumentError, EncryptedDocumentError):
        return None


def _zip_names_format(archive: zipfile.ZipFile, limits: ParseLimits, what: str) -> str | None:
    names = set(archive.namelist())
    if "mimetype" in names:
        mimetype = read_member(archive, "mimetype", limits, what=what, at_most=100)
        fmt = BY_MEDIA_TYPE.get(mimetype.decode("ascii", "replace").strip())
        return fmt.name if fmt else None
    package = next((fmt.name for fmt in FORMATS if fmt.zip_member and fmt.zip_member in names), None)
    return package if package is not None or names & PACKAGE_MARKERS else ARCHIVE


def _ole_format(data: bytes) -> str:
    """By the streams at the root of the compound file (an embedded object's streams sit deeper); when the
    directory cannot be read, by the UTF-16LE stream names found anywhere in the bytes."""
    names = root_names(data)
    if names is None:
        return _ole_format_by_bytes(data)
    if "EncryptedPackage" in names:
        return "ole-encrypted"
    for fmt in FORMATS:
        if any(stream in names for stream in fmt.ole_streams):
            return fmt.name
    return "ole"


def _ole_format_by_bytes(data: bytes) -> str:
    if "EncryptedPackage".encode("utf-16-le") in data:
        return "ole-encrypted"
    for fmt in FORMATS:
        if any(stream.encode("utf-16-le") in data for stream in fmt.ole_streams):
            return fmt.name
    return "ole"


def _text_format(head: bytes, by_name: str | None) -> str | None:
    text = head.decode("utf-8", "ignore").lstrip("\ufeff \t\r\n").lower()
    html_start = text.startswith(("<!doctype html", "<html"))
    if by_name in _TEXT_FORMATS:
        return "html" if html_start and by_name != "xml" else by_name
    if html_start or ("<body" in text and text[:1] == "<"):
        return "html"
    if text.startswith("<?xml") or (by_name is None and text.startswith("<")):
        return "xml"
    return None
