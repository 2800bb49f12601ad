"""Format detection: content first (magic bytes, zip members), then file extension, then MIME type."""

from __future__ import annotations

from pathlib import PurePosixPath

from docshelf.errors import CorruptDocumentError, EncryptedDocumentError
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.safe_zip import open_zip, read_member

FORMATS: tuple[str, ...] = (
    "pdf", "docx", "pptx", "xlsx", "xls", "csv", "tsv", "html", "md", "txt",
    "json", "xml", "rtf", "odt", "epub",
)  # fmt: skip

MEDIA_TYPES: dict[str, str] = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "xls": "application/vnd.ms-excel",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "html": "text/html",
    "md": "text/markdown",
    "txt": "text/plain",
    "json": "application/json",
    "xml": "application/xml",
    "rtf": "application/rtf",
    "odt": "application/vnd.oasis.opendocument.text",
    "epub": "application/epub+zip",
}

EXTENSIONS: dict[str, str] = {
    ".pdf": "pdf", ".docx": "docx", ".docm": "docx", ".pptx": "pptx", ".pptm": "pptx",
    ".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls", ".csv": "csv", ".tsv": "tsv", ".tab": "tsv",
    ".html": "html", ".htm": "html", ".xhtml": "html", ".md": "md", ".markdown": "md",
    ".txt": "txt", ".text": "txt", ".log": "txt", ".json": "json", ".jsonl": "json",
    ".xml": "xml", ".nxml": "xml", ".rtf": "rtf", ".odt": "odt", ".epub": "epub",
}  # fmt: skip

_MEDIA_TO_FORMAT = {media: fmt for fmt, media in MEDIA_TYPES.items()}

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"


def extension_format(filename: str) -> str | None:
    return EXTENSIONS.get(PurePosixPath(filename).suffix.lower())


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
        return _MEDIA_TO_FORMAT.get(media_type.split(";")[0].strip().lower())
    return None


def _sniff(data: bytes, by_name: str | None, limits: ParseLimits, filename: str) -> str | None:
    head = data[:2048]
    if head.lstrip()[:5] == b"%PDF-" or data[:1024].find(b"%PDF-") >= 0:
        return "pdf"
    if head.startswith(ZIP_MAGIC):
        return _zip_format(data, limits, filename) or by_name
    if head.startswith(OLE_MAGIC):
        return _ole_format(data)
    if head.startswith(b"{\\rtf"):
        return "rtf"
    return _text_format(head, by_name)


def _zip_format(data: bytes, limits: ParseLimits, filename: str) -> str | None:
    what = f"zip package {filename!r}"
    try:
        with open_zip(data, limits, what=what) as archive:
            names = set(archive.namelist())
            if "mimetype" in names:
                mimetype = read_member(archive, "mimetype", limits, what=what, at_most=100)
                return _MEDIA_TO_FORMAT.get(mimetype.decode("ascii", "replace").strip())
    except (CorruptDocumentError, EncryptedDocumentError):
        return None
    if "word/document.xml" in names:
        return "docx"
    if "ppt/presentation.xml" in names:
        return "pptx"
    if "xl/workbook.xml" in names:
        return "xlsx"
    return None


def _ole_format(data: bytes) -> str:
    # Directory entry names are UTF-16LE; a full OLE reader is not needed to tell them apart.
    if "EncryptedPackage".encode("utf-16-le") in data:
        return "ole-encrypted"
    if any(name.encode("utf-16-le") in data for name in ("Workbook", "Book")):
        return "xls"
    return "ole"


def _text_format(head: bytes, by_name: str | None) -> str | None:
    text = head.decode("utf-8", "ignore").lstrip("\ufeff \t\r\n").lower()
    if by_name in {"csv", "tsv", "md", "txt", "json", "xml"}:
        if by_name != "xml" and text.startswith(("<!doctype html", "<html")):
            return "html"
        return by_name
    if text.startswith(("<!doctype html", "<html")) or ("<body" in text and text[:1] == "<"):
        return "html"
    if text.startswith("<?xml") or (by_name is None and text.startswith("<")):
        return "xml" if by_name != "html" else "html"
    if text.startswith(("{", "[")) and by_name in (None, "json"):
        return "json" if by_name == "json" else None
    return None
