"""Zip archives of documents: a list of the files, then each read as the document it is under a heading of its path;
what cannot be read named with its reason (`partial`); containers inside containers listed, not read."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from email.message import EmailMessage
from pathlib import Path

import pytest
from docx import Document as WordDocument
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

import docshelf.parsers
from docshelf.config import ParseLimits
from docshelf.errors import (
    CorruptDocumentError,
    DocumentTooLargeError,
    EmptyDocumentError,
    EncryptedDocumentError,
    ParseTimeoutError,
    UnsupportedFormatError,
)
from docshelf.model import Heading, Paragraph
from docshelf.parsers import parse_bytes
from docshelf.parsers.archive import MAX_FILES
from docshelf.parsers.detect import detect_format
from docshelf.tables import block_text
from tests.unit.parsers.ooxml_fixtures import zip_bomb


def archive(members: dict[str, bytes | str], *, encrypted: frozenset[str] = frozenset()) -> bytes:
    """A zip as archivers write it; members named in `encrypted` carry the encryption flag in their local and
    central headers (zipfile writes no encrypted members, and the flag is what a reader goes by)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, body in members.items():
            package.writestr(zipfile.ZipInfo(name, date_time=(2026, 12, 7, 10, 0, 0)), body)
    data = bytearray(out.getvalue())
    entry = struct.unpack_from("<I", data, data.rindex(b"PK\x05\x06") + 16)[0]  # the central directory
    while data[entry : entry + 4] == b"PK\x01\x02":
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", data, entry + 28)
        local = struct.unpack_from("<I", data, entry + 42)[0]
        if data[entry + 46 : entry + 46 + name_length].decode() in encrypted:
            data[entry + 8] |= 0x1
            data[local + 6] |= 0x1
        entry += 46 + name_length + extra_length + comment_length
    return bytes(data)


def word_file(title: str, text: str) -> bytes:
    document = WordDocument()
    document.add_heading(title, 1)
    document.add_heading("Torque", 2)
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def pdf_file(*pages: str) -> bytes:
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    for text in pages:
        page.drawString(72, 760, text)
        page.showPage()
    page.save()
    return out.getvalue()


def mail_with(attachment: bytes, name: str) -> bytes:
    message = EmailMessage()
    message["Subject"], message["From"] = "Service bulletin", "ana@example.com"
    message.set_content("The bulletin is attached.")
    message.add_attachment(attachment, maintype="application", subtype="octet-stream", filename=name)
    return message.as_bytes()


def headings(data: bytes, name: str = "docs.zip") -> list[tuple[int, str]]:
    return [(b.level, b.text) for b in parse_bytes(data, name).blocks() if isinstance(b, Heading)]


def test_every_file_of_an_archive_is_read_under_its_path_in_path_order() -> None:
    data = archive(
        {
            "reports/q3.docx": word_file("Pump PX-9 report", "The M10 bolts take 45 Nm."),
            "notes.md": "# Field notes\n\nSeal kit SK-7 fits the PX-9.\n",
            "manual.pdf": pdf_file("Replace the seal every 6 months.", "Warranty: two years from delivery."),
            "reports/": b"",  # a folder entry
            "__MACOSX/reports/._q3.docx": b"\x00\x05\x16\x07 resource fork",
            "reports/.DS_Store": b"\x00\x00\x00\x01Bud1",
        }
    )
    assert detect_format(data, "docs.zip") == "zip" and detect_format(data, "docs") == "zip"
    document = parse_bytes(data, "docs.zip")
    assert document.title == "docs.zip" and not document.truncation and len(document.pages) == 1
    assert headings(data) == [
        (1, "manual.pdf"), (1, "notes.md"), (2, "Field notes"), (1, "reports/q3.docx"), (2, "Pump PX-9 report"),
        (3, "Torque"),
    ]  # fmt: skip
    texts = [b.text for b in document.blocks() if isinstance(b, Paragraph)]
    assert texts[0] == "Files: manual.pdf, notes.md, reports/q3.docx"
    for text in ("Replace the seal every 6 months.", "Warranty: two years from delivery.", "The M10 bolts take 45 Nm."):
        assert text in texts
    assert {block.page for block in document.blocks()} == {1}  # the PDF's two pages are not the archive's


def test_a_file_that_cannot_be_read_is_named_with_its_reason_and_the_rest_are_read() -> None:
    data = archive(
        {
            "readme.md": "# Read me\n\nThe archive's one readable file.\n",
            "tool.exe": b"MZ\x90\x00" + bytes(200),
            "broken.docx": b"PK\x03\x04 not really a package",
            "secret.pdf": pdf_file("locked"),
            "empty.txt": b"",
        },
        encrypted=frozenset({"secret.pdf"}),
    )
    document = parse_bytes(data, "mixed.zip")
    assert headings(data) == [(1, "readme.md"), (2, "Read me")]
    assert document.truncation.startswith("1 of 5 files read (broken.docx: corrupt; empty.txt: empty; secret.pdf: ")
    assert "tool.exe: unsupported_format" in document.truncation
    assert "secret.pdf: not read (encrypted: encrypted inside the archive" in " ".join(document.warnings)


def test_an_archive_of_nothing_readable_ends_with_the_reason_its_files_share() -> None:
    locked = archive({"a.pdf": pdf_file("a"), "b.pdf": pdf_file("b")}, encrypted=frozenset({"a.pdf", "b.pdf"}))
    with pytest.raises(EncryptedDocumentError, match="every file in the archive is encrypted"):
        parse_bytes(locked, "locked.zip")
    with pytest.raises(UnsupportedFormatError, match="no file in the archive could be read"):
        parse_bytes(archive({"a.exe": b"MZ" + bytes(64), "b.bin": bytes(range(256))}), "tools.zip")
    with pytest.raises(CorruptDocumentError, match="no file in the archive could be read"):
        parse_bytes(archive({"a.exe": b"MZ" + bytes(64), "b.docx": b"PK\x03\x04 junk"}), "mixed.zip")
    with pytest.raises(EmptyDocumentError, match="no files"):
        parse_bytes(archive({"folder/": b"", "__MACOSX/._x": b"junk"}), "empty.zip")
    with pytest.raises(CorruptDocumentError):
        parse_bytes(archive({"a.md": "# A\n\ntext"})[:-30], "cut.zip")  # its central directory cut off


def test_a_zip_bomb_is_refused_before_anything_is_inflated_and_the_other_files_read() -> None:
    with pytest.raises(DocumentTooLargeError, match="zip bomb guard"):
        parse_bytes(zip_bomb("report.txt", 50 * 1024 * 1024), "bomb.zip")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("notes.md", "# Notes\n\nThe seal kit is SK-7.\n")
        package.writestr("zeros.txt", bytes(50 * 1024 * 1024))  # deflates about 1000:1
    document = parse_bytes(out.getvalue(), "mixed.zip")
    assert "The seal kit is SK-7." in [block_text(b) for b in document.blocks()]
    assert document.truncation.startswith("1 of 2 files read (zeros.txt: too_large)")
    assert "zeros.txt: not read (too_large: has a compression ratio of" in " ".join(document.warnings)
    tight = ParseLimits(max_decompressed_bytes=1024 * 1024)  # the archive's files together stay within its limit
    many = archive({f"part{n}.md": f"# Part {n}\n\n" + "word " * 100_000 for n in range(4)})
    assert parse_bytes(many, "many.zip", limits=tight).truncation.startswith("2 of 4 files read (part2.md: too_large")


def test_containers_inside_containers_list_their_files_without_reading_them() -> None:
    inner = archive({"deep/secret.md": "# Deep\n\nNever read.\n"})
    bulletin = mail_with(archive({"attached.md": "# Attached\n\nNot read either.\n"}), "parts.zip")
    data = archive({"inner.zip": inner, "bulletin.eml": bulletin, "top.md": "# Top\n\nRead.\n"})
    document = parse_bytes(data, "outer.zip")
    texts = [block_text(b) for b in document.blocks()]
    assert "Files: deep/secret.md" in texts and "Never read." not in texts
    assert "The bulletin is attached." in texts and "Attachments: parts.zip" in texts
    assert "Not read either." not in texts and "Read." in texts
    # an archive attached to an e-mail is listed, not read, and so is a zip holding itself twice over
    mailed = parse_bytes(mail_with(data, "outer.zip"), "mail.eml")
    assert "Files: bulletin.eml, inner.zip, top.md" in [block_text(b) for b in mailed.blocks()]
    assert "Read." not in [block_text(b) for b in mailed.blocks()]
    nested = archive({"again.zip": archive({"again.zip": archive({"x.md": "# X\n\nbottom"})})})
    shown = [block_text(b) for b in parse_bytes(nested, "n.zip").blocks()]
    assert shown == ["Files: again.zip", "again.zip", "Files: again.zip"]


def test_names_written_as_utf8_without_the_flag_are_read_as_utf8() -> None:
    placeholder = "abcdef.md"  # as many bytes as the name below
    name = "报告.md"
    data = archive({placeholder: "# 报告\n\n扭矩为45牛米。\n"}).replace(placeholder.encode(), name.encode("utf-8"))
    assert zipfile.ZipFile(io.BytesIO(data)).infolist()[0].flag_bits & 0x800 == 0
    assert headings(data)[0] == (1, "报告.md")


def test_only_a_zip_that_is_no_package_is_an_archive() -> None:
    xps = archive({"[Content_Types].xml": "<Types/>", "Documents/1/FixedDocument.fdoc": "<FixedDocument/>"})
    assert detect_format(xps, "scan.xps") is None
    keynote = archive({"Index/Document.iwa": b"\x00", "preview.jpg": b"\xff\xd8\xff"})
    assert detect_format(keynote, "talk.key") is None
    database = archive({"mimetype": "application/vnd.oasis.opendocument.database", "content.xml": "<x/>"})
    assert detect_format(database, "base.odb") is None
    assert detect_format(archive({"word/document.xml": "<w/>", "[Content_Types].xml": "<T/>"}), "a.zip") == "docx"
    # a PDF stored uncompressed first in the archive puts `%PDF-` within the bytes a PDF reader skips as junk
    stored = archive({"a.pdf": pdf_file("first"), "b.md": "# B\n\nsecond"})
    assert stored.find(b"%PDF-") < 1024 and detect_format(stored, "two.zip") == "zip"


def test_files_past_the_limit_or_the_time_budget_are_named_and_the_rest_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = docshelf.parsers.read_attached
    calls: list[str] = []

    def budget_runs_out_on_the_third(data: bytes, filename: str, limits: docshelf.parsers.ParseLimits) -> object:
        calls.append(filename)
        if len(calls) == 3:
            raise ParseTimeoutError("parsing took longer than the budget of 300s")
        return read(data, filename, limits)

    monkeypatch.setattr(docshelf.parsers, "read_attached", budget_runs_out_on_the_third)
    data = archive({f"part{n}.md": f"# Part {n}\n\nText {n}.\n" for n in range(1, 5)})
    document = parse_bytes(data, "parts.zip")
    assert [b.text for b in document.blocks() if isinstance(b, Heading) and b.level == 1] == ["part1.md", "part2.md"]
    assert document.truncation == "2 of 4 files read (part3.md: timeout; part4.md: timeout)"
    monkeypatch.setattr(docshelf.parsers, "read_attached", read)
    monkeypatch.setattr("docshelf.parsers.archive.MAX_FILES", 2)
    assert parse_bytes(data, "parts.zip").truncation == "2 of 4 files read (part3.md: too_large; part4.md: too_large)"
    assert MAX_FILES == 1000


def test_an_archive_dropped_in_a_folder_is_searched_cited_by_its_files_and_partial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from docshelf.local.cli import main

    folder = tmp_path / "docs"
    folder.mkdir()
    members: dict[str, bytes | str] = {
        "reports/q3.docx": word_file("Pump PX-9 report", "The M10 bolts of the PX-9 housing take 45 Nm."),
        "tool.exe": b"MZ" + bytes(64),
    }
    (folder / "bundle.zip").write_bytes(archive(members))
    store = str(tmp_path / "store")
    assert main(["ingest", str(folder), "--namespace", "lab", "--store", store, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["search", "torque of the PX-9 housing bolts", "--namespace", "lab", "--store", store, "--json"]) == 0
    response = json.loads(capsys.readouterr().out)
    assert response["results"][0]["section_path"][0] == "reports/q3.docx"
    assert "45 Nm" in response["evidence_text"] and "bundle.zip" in response["evidence_text"]
    assert "p. 1" not in response["evidence_text"]  # an archive's files are cited without pages
    assert main(["status", "--namespace", "lab", "--store", store, "--json"]) == 0
    status = capsys.readouterr().out
    assert "partial" in status and "1 of 2 files read (tool.exe: unsupported_format)" in status
