"""Hostile inputs generated in memory: zip bombs in every member position, deep nesting, pathological markup.

Shared by the parser tests and bench/hostile_bench.py.
"""

from __future__ import annotations

import functools
import io
import struct
import tarfile
import zipfile
import zlib

from tests.support.zip_fixtures import build_zip

PROBE_TEXT = "hostile probe text"
BOMB_SIZE = 64 * 1024 * 1024  # zeros deflate about 1000:1: a 64 KB member
ODT_MIME = "application/vnd.oasis.opendocument.text"
ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
ODP_MIME = "application/vnd.oasis.opendocument.presentation"
EPUB_MIME = "application/epub+zip"

# Member positions per zip format: detection's mimetype, the package manifest, the body, a media member.
BOMB_POSITIONS: dict[str, tuple[str, ...]] = {
    "docx": ("mimetype", "[Content_Types].xml", "word/document.xml", "word/media/image1.png"),
    "pptx": ("mimetype", "[Content_Types].xml", "ppt/slides/slide1.xml", "ppt/media/image1.png"),
    "xlsx": ("mimetype", "[Content_Types].xml", "xl/worksheets/sheet1.xml", "xl/media/image1.png"),
    "odt": ("mimetype", "META-INF/manifest.xml", "content.xml", "Pictures/image1.png"),
    "ods": ("mimetype", "META-INF/manifest.xml", "content.xml", "Pictures/image1.png"),
    "odp": ("mimetype", "META-INF/manifest.xml", "content.xml", "Pictures/image1.png"),
    "epub": ("mimetype", "META-INF/container.xml", "OEBPS/ch1.xhtml", "OEBPS/images/cover.png"),
}
EMBEDDED_PACKAGE = {
    "docx": "word/embeddings/package.zip",
    "pptx": "ppt/embeddings/package.zip",
    "xlsx": "xl/embeddings/package.zip",
    "odt": "Objects/package.zip",
    "ods": "Objects/package.zip",
    "odp": "Objects/package.zip",
    "epub": "OEBPS/package.zip",
}


@functools.cache
def package(fmt: str) -> bytes:
    """A small valid package of `fmt` whose text is PROBE_TEXT."""
    return _BUILDERS[fmt]()


def _docx() -> bytes:
    from docx import Document

    document = Document()
    document.add_paragraph(PROBE_TEXT)
    return _saved(document)


def _pptx() -> bytes:
    from pptx import Presentation
    from pptx.util import Inches

    presentation = Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[6])
    slide.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1)).text_frame.text = PROBE_TEXT
    return _saved(presentation)


def _xlsx() -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet["A1"] = PROBE_TEXT
    return _saved(workbook)


def _opendocument(kind: str, body: str, mimetype: str) -> bytes:
    content = (
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0">'
        f"<office:body><office:{kind}>{body}</office:{kind}></office:body></office:document-content>"
    )
    return build_zip({"META-INF/manifest.xml": b"<manifest/>", "content.xml": content.encode()}, mimetype=mimetype)


def _odt() -> bytes:
    return _opendocument("text", f"<text:p>{PROBE_TEXT}</text:p>", ODT_MIME)


def _ods() -> bytes:
    sheet = f'<table:table table:name="S"><table:table-row><table:table-cell><text:p>{PROBE_TEXT}</text:p>'
    return _opendocument("spreadsheet", sheet + "</table:table-cell></table:table-row></table:table>", ODS_MIME)


def _odp() -> bytes:
    slide = f"<draw:page><draw:frame><draw:text-box><text:p>{PROBE_TEXT}</text:p></draw:text-box></draw:frame>"
    return _opendocument("presentation", slide + "</draw:page>", ODP_MIME)


def _epub() -> bytes:
    container = (
        b'<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles>'
        b'<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'
    )
    opf = (
        b'<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>'
        b'<item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest>'
        b'<spine><itemref idref="c1"/></spine></package>'
    )
    chapter = f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{PROBE_TEXT}</p></body></html>'.encode()
    members = {"META-INF/container.xml": container, "OEBPS/content.opf": opf, "OEBPS/ch1.xhtml": chapter}
    return build_zip(members, mimetype=EPUB_MIME)


_BUILDERS = {"docx": _docx, "pptx": _pptx, "xlsx": _xlsx, "odt": _odt, "ods": _ods, "odp": _odp, "epub": _epub}


def _saved(document: object) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)  # type: ignore[attr-defined]
    return buffer.getvalue()


def with_member(data: bytes, name: str, content: bytes) -> bytes:
    """`data` with member `name` replaced by (or added as) `content`; a replaced mimetype stays first."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        names = source.namelist()
        if name not in names:
            names.append(name)
        for member in names:
            target.writestr(member, content if member == name else source.read(member))
    return buffer.getvalue()


def zip_bomb_in(fmt: str, member: str, size: int = BOMB_SIZE) -> bytes:
    """A package of `fmt` whose `member` inflates to `size` zero bytes."""
    return with_member(package(fmt), member, bytes(size))


def nested_zip_bomb_in(fmt: str, size: int = BOMB_SIZE) -> bytes:
    """A package of `fmt` embedding a zip whose one member inflates to `size` bytes."""
    return with_member(package(fmt), EMBEDDED_PACKAGE[fmt], build_zip({"bomb.bin": bytes(size)}))


def declare_size(data: bytes, member: str, size: int) -> bytes:
    """`data` with the central directory declaring `size` as the expanded size of `member` (the data unchanged)."""
    patched = bytearray(data)
    encoded = member.encode()
    start = patched.find(b"PK\x01\x02")
    while start >= 0:
        name_length = struct.unpack_from("<H", patched, start + 28)[0]
        if bytes(patched[start + 46 : start + 46 + name_length]) == encoded:
            struct.pack_into("<I", patched, start + 24, size)
            return bytes(patched)
        start = patched.find(b"PK\x01\x02", start + 4)
    raise KeyError(member)


def nested_html(depth: int, opener: str = "<div>", closer: str = "</div>") -> bytes:
    return f"<html><body>{opener * depth}{PROBE_TEXT}{closer * depth}</body></html>".encode()


def unclosed_emphasis_markdown(repeats: int) -> bytes:
    return ("*a " * repeats + PROBE_TEXT).encode()


def archive_of(count: int, *, bomb: bool = False) -> bytes:
    """A zip archive of `count` small Markdown files (and a member of zeros that deflates ~1000:1, `bomb`)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for number in range(count):
            archive.writestr(f"notes/{number:05d}.md", f"# Note {number}\n\n{PROBE_TEXT} {number}.\n")
        if bomb:
            archive.writestr("zeros.txt", bytes(BOMB_SIZE))
    return out.getvalue()


def gzip_zeros(size: int) -> bytes:
    """`size` zero bytes gzip-compressed, streamed (a gzip bomb of about size / 1000)."""
    return _deflated_zeros(size, zlib.compressobj(9, zlib.DEFLATED, 31))


def tar_gzip_zeros(size: int) -> bytes:
    """A .tar.gz holding one file of `size` zero bytes, built without holding them."""
    header = tarfile.TarInfo("zeros.bin")
    header.size = size
    block = header.tobuf(format=tarfile.GNU_FORMAT)
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    return compressor.compress(block) + _deflated_zeros(size + (-size % 512) + 1024, compressor)


def _deflated_zeros(size: int, compressor: zlib._Compress) -> bytes:
    out = io.BytesIO()
    chunk = bytes(16 * 1024 * 1024)
    for start in range(0, size, len(chunk)):
        out.write(compressor.compress(chunk[: min(len(chunk), size - start)]))
    out.write(compressor.flush())
    return out.getvalue()
