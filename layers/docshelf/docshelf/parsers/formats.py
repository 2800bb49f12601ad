"""The supported formats as data: detection, media types, extensions and the parser registry derive from it.

Importing this module imports no parser (the search function loads it without the parsers layer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How content detection recognises a format (`parsers/detect.py`):
#   magic   its bytes start with `magic` (anywhere in the first `magic_within` bytes when that is set, at
#           `magic_at` when that is)
#   zip     a zip package holding `zip_member`, or whose `mimetype` member is the format's media type (or a flat
#           OpenDocument file: one XML file whose root names that media type); a zip that is no package at all
#           (ARCHIVE) is an archive of documents
#   ole     an OLE compound file with one of the `ole_streams`
#   markup  text whose first characters say so (HTML and XML tags)
#   name    text only the file name (or the media type) tells apart
# A text format's file name wins over markup sniffing, except that HTML content named as another text
# format (not XML) is HTML.
Detection = Literal["magic", "zip", "ole", "markup", "name"]


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    parser_module: str  # `family.module` under docshelf.parsers, exposing `parse(data, *, filename, limits)`
    media_type: str
    extensions: tuple[str, ...]
    detection: Detection
    magic: bytes = b""
    more_magic: tuple[bytes, ...] = ()  # other signatures the bytes may start with instead
    magic_within: int = 0
    magic_at: int = 0  # where `magic` stands, when not at the start (a tar archive's `ustar`)
    zip_member: str = ""
    ole_streams: tuple[str, ...] = ()
    more_media_types: tuple[str, ...] = ()  # its templates' and variants', read the same way

    @property
    def parser_name(self) -> str:
        """The parser's name as documents record it (`Source.parser`): its module's own name, without the family."""
        return self.parser_module.rpartition(".")[2]


# Text documents with no parser of their own are read as plain text: BibTeX sources, Org files,
# subtitles and transcripts, configuration.
# A zip holding none of these is no package of some format but an archive of documents (`.zip`).
ARCHIVE = "zip"
PACKAGE_MARKERS = frozenset(
    {
        "mimetype",  # OpenDocument, EPUB
        "[Content_Types].xml",  # every Office Open XML package (`.xps` too)
        "META-INF/manifest.xml",
        "META-INF/MANIFEST.MF",  # Java archives
        "Index/Document.iwa",  # Apple Pages, Numbers and Keynote
        "AndroidManifest.xml",
    }
)

TEXT_EXTENSIONS = (
    ".txt", ".text", ".log", ".bib", ".org", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf",
    ".properties",
)  # fmt: skip

FORMATS: tuple[Format, ...] = (
    # PDF readers accept a header after junk bytes within the first 1024, and so does detection.
    Format("pdf", "pdf.pdf", "application/pdf", (".pdf",), "magic", magic=b"%PDF-", magic_within=1024),
    Format(
        "docx",
        "office.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        (".docx", ".docm", ".dotx", ".dotm"),
        "zip",
        zip_member="word/document.xml",
        more_media_types=("application/vnd.openxmlformats-officedocument.wordprocessingml.template",),
    ),
    Format(
        "vsdx",
        "office.vsdx",
        "application/vnd.ms-visio.drawing",
        (".vsdx", ".vsdm", ".vstx", ".vstm"),
        "zip",
        zip_member="visio/document.xml",
        more_media_types=("application/vnd.ms-visio.drawing.macroenabled.12", "application/vnd.ms-visio.template"),
    ),
    Format(
        "pptx",
        "office.pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        (".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm"),
        "zip",
        zip_member="ppt/presentation.xml",
        more_media_types=(
            "application/vnd.openxmlformats-officedocument.presentationml.slideshow",
            "application/vnd.openxmlformats-officedocument.presentationml.template",
        ),
    ),
    Format(
        "xlsx",
        "sheets.xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        (".xlsx", ".xlsm", ".xltx", ".xltm"),
        "zip",
        zip_member="xl/workbook.xml",
        more_media_types=("application/vnd.openxmlformats-officedocument.spreadsheetml.template",),
    ),
    Format(
        "xlsb",
        "sheets.xlsb",
        "application/vnd.ms-excel.sheet.binary.macroenabled.12",
        (".xlsb",),
        "zip",
        zip_member="xl/workbook.bin",
    ),
    # Word and PowerPoint files may embed a workbook (a `Workbook` stream deeper down): their own streams first.
    Format("doc", "office.doc", "application/msword", (".doc", ".dot"), "ole", ole_streams=("WordDocument",)),
    Format(
        "ppt",
        "office.ppt",
        "application/vnd.ms-powerpoint",
        (".ppt", ".pps", ".pot"),
        "ole",
        ole_streams=("PowerPoint Document",),
    ),
    Format("xls", "sheets.xls", "application/vnd.ms-excel", (".xls",), "ole", ole_streams=("Workbook", "Book")),
    Format(
        "msg", "markup.msg", "application/vnd.ms-outlook", (".msg",), "ole", ole_streams=("__properties_version1.0",)
    ),
    Format("csv", "sheets.delimited", "text/csv", (".csv",), "name"),
    Format("tsv", "sheets.delimited", "text/tab-separated-values", (".tsv", ".tab"), "name"),
    Format("html", "markup.html", "text/html", (".html", ".htm", ".xhtml"), "markup"),
    Format("md", "markup.markdown", "text/markdown", (".md", ".markdown"), "name"),
    Format("txt", "markup.text", "text/plain", TEXT_EXTENSIONS, "name"),
    Format("rst", "markup.rst", "text/x-rst", (".rst", ".rest"), "name"),
    Format("adoc", "markup.asciidoc", "text/asciidoc", (".adoc", ".asciidoc"), "name"),
    Format("json", "markup.json", "application/json", (".json", ".jsonl"), "name"),
    Format(
        "subtitles",
        "markup.subtitles",
        "text/vtt",
        (".vtt", ".srt"),
        "name",
        more_media_types=("application/x-subrip",),
    ),
    Format(
        "ics",
        "markup.calendar",
        "text/calendar",
        (".ics", ".ical", ".ifb"),
        "magic",
        magic=b"BEGIN:VCALENDAR",
        more_magic=(b"\xef\xbb\xbfBEGIN:VCALENDAR",),
    ),
    Format(
        "vcf",
        "markup.calendar",
        "text/vcard",
        (".vcf", ".vcard"),
        "magic",
        magic=b"BEGIN:VCARD",
        more_magic=(b"\xef\xbb\xbfBEGIN:VCARD",),
        more_media_types=("text/x-vcard",),
    ),
    Format(
        "latex",
        "markup.latex",
        "application/x-tex",
        (".tex", ".ltx", ".latex"),
        "name",
        more_media_types=("text/x-tex",),
    ),
    Format("ipynb", "markup.notebook", "application/x-ipynb+json", (".ipynb",), "name"),
    Format("mbox", "markup.mbox", "application/mbox", (".mbox", ".mbx"), "name"),
    Format(
        "mhtml",
        "markup.mhtml",
        "application/x-mimearchive",
        (".mht", ".mhtml"),
        "name",
        more_media_types=("multipart/related",),
    ),
    Format("xml", "markup.xml", "application/xml", (".xml", ".nxml"), "markup"),
    # Compressed files are read as what they hold: one file, or a tar archive of documents.
    Format(
        "gzip",
        "compressed",
        "application/gzip",
        (".gz",),
        "magic",
        magic=b"\x1f\x8b",
        more_media_types=("application/x-gzip",),
    ),
    Format("bzip2", "compressed", "application/x-bzip2", (".bz2",), "magic", magic=b"BZh"),
    Format("xz", "compressed", "application/x-xz", (".xz",), "magic", magic=b"\xfd7zXZ\x00"),
    Format(
        "tar",
        "compressed",
        "application/x-tar",
        (".tar", ".tgz", ".tbz2", ".tbz", ".txz"),
        "magic",
        magic=b"ustar",
        magic_at=257,
    ),
    Format(ARCHIVE, "archive", "application/zip", (".zip",), "zip", more_media_types=("application/x-zip-compressed",)),
    Format("rtf", "office.rtf", "application/rtf", (".rtf",), "magic", magic=b"{\\rtf"),
    Format(
        "odt",
        "office.odt",
        "application/vnd.oasis.opendocument.text",
        (".odt", ".ott", ".fodt"),
        "zip",
        more_media_types=("application/vnd.oasis.opendocument.text-template",),
    ),
    Format(
        "ods",
        "sheets.ods",
        "application/vnd.oasis.opendocument.spreadsheet",
        (".ods", ".ots", ".fods"),
        "zip",
        more_media_types=("application/vnd.oasis.opendocument.spreadsheet-template",),
    ),
    Format(
        "odp",
        "office.odp",
        "application/vnd.oasis.opendocument.presentation",
        (".odp", ".otp", ".fodp"),
        "zip",
        more_media_types=("application/vnd.oasis.opendocument.presentation-template",),
    ),
    Format(
        "odg",
        "office.odp",
        "application/vnd.oasis.opendocument.graphics",
        (".odg", ".otg", ".fodg"),
        "zip",
        more_media_types=("application/vnd.oasis.opendocument.graphics-template",),
    ),
    Format("epub", "markup.epub", "application/epub+zip", (".epub",), "zip"),
    Format("eml", "markup.eml", "message/rfc822", (".eml",), "name"),
    # Images are read by OCR (parsers/image.py); TIFF in either byte order, classic or BigTIFF.
    Format("png", "image", "image/png", (".png",), "magic", magic=b"\x89PNG\r\n\x1a\n"),
    Format("jpeg", "image", "image/jpeg", (".jpg", ".jpeg", ".jpe"), "magic", magic=b"\xff\xd8\xff"),
    Format("gif", "image", "image/gif", (".gif",), "magic", magic=b"GIF87a", more_magic=(b"GIF89a",)),
    Format("webp", "image", "image/webp", (".webp",), "magic", magic=b"WEBP", magic_at=8),
    Format(
        "tiff",
        "image",
        "image/tiff",
        (".tif", ".tiff"),
        "magic",
        magic=b"II*\x00",
        more_magic=(b"MM\x00*", b"II+\x00", b"MM\x00+"),
    ),
)

BY_NAME: dict[str, Format] = {fmt.name: fmt for fmt in FORMATS}
BY_EXTENSION: dict[str, Format] = {ext: fmt for fmt in FORMATS for ext in fmt.extensions}
BY_MEDIA_TYPE: dict[str, Format] = {
    media_type: fmt for fmt in FORMATS for media_type in (fmt.media_type, *fmt.more_media_types)
}
