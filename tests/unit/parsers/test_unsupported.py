"""A file docshelf does not read ends with a status that says what it is and what its owner can do."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from docshelf.errors import UnsupportedFormatError
from docshelf.parsers import parse_bytes
from tests.unit.parsers.ole_fixtures import compound_file
from tests.unit.parsers.test_archive import archive


def bmp() -> bytes:
    out = io.BytesIO()
    Image.new("L", (40, 20), 255).save(out, "BMP")
    return out.getvalue()


REPACK = "repack it as .zip or .tar.gz"
PHOTO = "convert it to JPEG or PNG"
MEDIA = "docshelf reads no speech; a transcript as .vtt or .srt is read"
EXPORT = "export it from the app as PDF, Word, Excel or PowerPoint"
SAMPLES = [
    (b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(40), "docs.7z", "a 7-Zip archive", REPACK),
    (b"Rar!\x1a\x07\x01\x00" + bytes(40), "docs.rar", "a RAR archive", REPACK),
    (b"\xffWPC" + bytes(40), "memo.wpd", "a WordPerfect document", "save it as .docx or PDF"),
    (b"\x00\x00\x00\x18ftypheic" + bytes(40), "IMG_0042.HEIC", "a HEIC photo", PHOTO),
    (b"\x00\x00\x00\x18ftypisom" + bytes(40), "meeting.mp4", "a video or audio file (MP4, MOV, M4A)", MEDIA),
    (b"ID3\x04\x00" + bytes(40), "call.mp3", "an MP3 audio file", MEDIA),
    (b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(40), "call.wav", "a WAV audio file", MEDIA),
    (b"SQLite format 3\x00" + bytes(90), "app.db", "an SQLite database", "export its tables as CSV"),
    (b"MZ\x90\x00" + bytes(60), "setup.exe", "a Windows program", ""),
    (bmp(), "scan.bmp", "a BMP image", "convert it to PNG"),
    (archive({"Index/Document.iwa": b"\x00\x01", "preview.jpg": b"\xff\xd8\xff"}), "plan.pages",
     "an Apple Pages document", EXPORT),
    (archive({"Index/Document.iwa": b"\x00\x01"}), "upload.bin", "an Apple iWork file (Pages, Numbers or Keynote)",
     EXPORT),
    (archive({"[Content_Types].xml": "<T/>", "FixedDocumentSequence.fdseq": "<x/>", "Documents/1/Pages/1.fpage": ""}),
     "form.xps", "an XPS document", "print it to PDF"),
    (archive({"mimetype": "application/vnd.oasis.opendocument.formula", "content.xml": "<x/>"}), "eq.odf",
     "an OpenDocument formula", "export it as PDF"),
    (compound_file({"VisioDocument": bytes(600)}), "old.vsd", "a Visio 2003-2010 drawing (.vsd)", "save it as .vsdx"),
    (compound_file({"Quill": bytes(600)}), "flyer.pub", "a Microsoft Publisher file", "export it as PDF"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "name", "kind", "advice"), SAMPLES, ids=[sample[1] for sample in SAMPLES])
def test_a_file_of_a_known_kind_docshelf_does_not_read_is_named_with_what_to_do(
    data: bytes, name: str, kind: str, advice: str
) -> None:
    with pytest.raises(UnsupportedFormatError) as raised:
        parse_bytes(data, name)
    said = f"{name!r} is {kind}, which docshelf does not read" + (f" ({advice})" if advice else "")
    assert str(raised.value) == said


def test_an_unknown_file_lists_what_is_read_and_an_archive_names_each_kind() -> None:
    with pytest.raises(
        UnsupportedFormatError, match=r"'blob.bin' is an unrecognised format; supported: .*\bpdf\b.*\bzip\b"
    ):
        parse_bytes(bytes(range(256)) * 4, "blob.bin")
    with pytest.raises(UnsupportedFormatError, match=r"'old\.bin' is a legacy Office binary file; supported: "):
        parse_bytes(compound_file({"Something": bytes(600)}), "old.bin")
    document = parse_bytes(archive({"a.md": "# A\n\ntext", "b.7z": b"7z\xbc\xaf\x27\x1c" + bytes(40)}), "mixed.zip")
    assert document.warnings == (
        "b.7z: not read (unsupported_format: 'b.7z' is a 7-Zip archive, which docshelf does not read "
        "(repack it as .zip or .tar.gz))",
    )


def test_an_attachment_that_cannot_be_read_is_named_and_a_members_warnings_reach_its_archive() -> None:
    from tests.unit.parsers.test_archive import mail_with
    from tests.unit.parsers.test_mbox import mail, mailbox

    document = parse_bytes(mail_with(b"7z\xbc\xaf\x27\x1c" + bytes(40), "photos.7z"), "bulletin.eml")
    said = "attachment photos.7z: not read (unsupported_format: 'photos.7z' is a 7-Zip archive"
    assert document.warnings[0].startswith(said) and not document.truncation  # the message itself is whole
    box = mailbox(mail("Readable", "Kept."), b"\x00\x01 not a message at all")
    zipped = parse_bytes(archive({"box.mbox": box, "a.md": "# A\n\ntext"}), "mail.zip")
    assert zipped.warnings[0].startswith("box.mbox: message 2 left out")
