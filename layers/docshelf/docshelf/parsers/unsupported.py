"""What a file docshelf does not read is, when its bytes say so, and what its owner can do: a status that reads
"a 7-Zip archive (repack it as .zip or .tar.gz)" rather than "an unrecognised format"."""

from __future__ import annotations

import struct
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from docshelf.errors import DocumentError
from docshelf.parsers.formats import BY_NAME
from docshelf.parsers.ole_names import root_names
from docshelf.parsers.safe_zip import open_zip, read_member

if TYPE_CHECKING:
    from docshelf.parsers.base import ParseLimits

_REPACK = "repack it as .zip or .tar.gz"
_MEDIA = "docshelf reads no speech; a transcript as .vtt or .srt is read"
# (signature, where it stands, what the file is, what to do)
_SIGNATURES: tuple[tuple[bytes, int, str, str], ...] = (
    (b"7z\xbc\xaf\x27\x1c", 0, "a 7-Zip archive", _REPACK),
    (b"Rar!\x1a\x07", 0, "a RAR archive", _REPACK),
    (b"\xffWPC", 0, "a WordPerfect document", "save it as .docx or PDF"),
    (bytes.fromhex("e4525c7b8cd8a74daeb15378d02996d3"), 0, "a OneNote section", "export it as PDF or .docx"),
    (b"%!PS", 0, "a PostScript file", "convert it to PDF"),
    (b"ftypheic", 4, "a HEIC photo", "convert it to JPEG or PNG"),
    (b"ftypheix", 4, "a HEIC photo", "convert it to JPEG or PNG"),
    (b"ftypmif1", 4, "a HEIF photo", "convert it to JPEG or PNG"),
    (b"ftypavif", 4, "an AVIF image", "convert it to JPEG or PNG"),
    (b"ftyp", 4, "a video or audio file (MP4, MOV, M4A)", _MEDIA),
    (b"ID3", 0, "an MP3 audio file", _MEDIA),
    (b"OggS", 0, "an Ogg audio or video file", _MEDIA),
    (b"fLaC", 0, "a FLAC audio file", _MEDIA),
    (b"WAVE", 8, "a WAV audio file", _MEDIA),
    (b"AVI ", 8, "an AVI video", _MEDIA),
    (b"\x1aE\xdf\xa3", 0, "a Matroska or WebM video", _MEDIA),
    (b"SQLite format 3\x00", 0, "an SQLite database", "export its tables as CSV"),
    (b"MZ", 0, "a Windows program", ""),
    (b"\x7fELF", 0, "a Linux program", ""),
)
_IWORK = {
    ".pages": "an Apple Pages document",
    ".numbers": "an Apple Numbers spreadsheet",
    ".key": "an Apple Keynote presentation",
}
_OLE_KINDS = {
    "VisioDocument": ("a Visio 2003-2010 drawing (.vsd)", "save it as .vsdx"),
    "Quill": ("a Microsoft Publisher file", "export it as PDF"),
}
_OPENDOCUMENT_KINDS = {
    "application/vnd.oasis.opendocument.formula": "an OpenDocument formula",
    "application/vnd.oasis.opendocument.database": "an OpenDocument database",
}


def unsupported_description(data: bytes, filename: str, fmt: str | None, limits: ParseLimits) -> str:
    """What the file is and what to do with it, as a status's message ends (`'x.7z' is a 7-Zip archive, …`), for a
    file detection found no parser for (`fmt` None, or `ole` for an OLE file of no known kind)."""
    kind, advice = _known(data, filename, fmt, limits)
    if not kind:
        kind = "a legacy Office binary file" if fmt == "ole" else "an unrecognised format"
        return f"{filename!r} is {kind}; supported: {', '.join(sorted(BY_NAME))}"
    return f"{filename!r} is {kind}, which docshelf does not read" + (f" ({advice})" if advice else "")


def _known(data: bytes, filename: str, fmt: str | None, limits: ParseLimits) -> tuple[str, str]:
    if fmt == "ole":
        names = root_names(data) or frozenset()
        return next((_OLE_KINDS[name] for name in _OLE_KINDS if name in names), ("", ""))
    if data.startswith(b"PK\x03\x04"):
        return _zip_kind(data, filename, limits)
    if data.startswith(b"BM") and len(data) > 26 and struct.unpack_from("<I", data, 2)[0] == len(data):
        return "a BMP image", "convert it to PNG"
    for signature, at, kind, advice in _SIGNATURES:
        if data[at : at + len(signature)] == signature:
            return kind, advice
    return "", ""


def _zip_kind(data: bytes, filename: str, limits: ParseLimits) -> tuple[str, str]:
    try:
        with open_zip(data, limits, what=f"zip package {filename!r}") as archive:
            names = set(archive.namelist())
            head = (
                read_member(archive, "mimetype", limits, what="mimetype", at_most=100) if "mimetype" in names else b""
            )
    except (DocumentError, OSError, ValueError, KeyError):
        return "", ""
    if any(name.endswith(".iwa") for name in names):
        app = _IWORK.get(PurePosixPath(filename).suffix.casefold(), "an Apple iWork file (Pages, Numbers or Keynote)")
        return app, "export it from the app as PDF, Word, Excel or PowerPoint"
    if "FixedDocumentSequence.fdseq" in names or any(name.endswith(".fpage") for name in names):
        return "an XPS document", "print it to PDF"
    mimetype = head.decode("ascii", "replace").strip()
    if mimetype in _OPENDOCUMENT_KINDS:
        return _OPENDOCUMENT_KINDS[mimetype], "export it as PDF"
    if "META-INF/MANIFEST.MF" in names or "AndroidManifest.xml" in names:
        return "a Java or Android program", ""
    return "", ""
