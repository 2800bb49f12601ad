"""Compressed files and tar archives: one compressed file read as the file it holds, with its pages; a tar archive
(plain, gzip, bzip2 or xz) read as a zip archive is; bombs and files compressed twice refused."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import random
import tarfile
from dataclasses import replace

import pytest

from docshelf.citations import evidence_header
from docshelf.config import ParseLimits
from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, UnsupportedFormatError
from docshelf.model import Chunk, Heading
from docshelf.parsers import parse_bytes
from docshelf.parsers.compressed import expanded_name
from docshelf.parsers.detect import detect_format
from docshelf.tables import block_text
from tests.unit.parsers.test_archive import archive, pdf_file, word_file


def tar(members: dict[str, bytes | str], *, mode: str = "w", links: bool = False) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as package:  # type: ignore[call-overload]
        folder = tarfile.TarInfo("./docs")
        folder.type = tarfile.DIRTYPE
        package.addfile(folder)
        for name, body in members.items():
            data = body.encode() if isinstance(body, str) else body
            info = tarfile.TarInfo(name)
            info.size = len(data)
            package.addfile(info, io.BytesIO(data))
        if links:
            link = tarfile.TarInfo("./docs/passwd")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            package.addfile(link)
    return out.getvalue()


MEMBERS: dict[str, bytes | str] = {
    "./docs/notes.md": "# Field notes\n\nSeal kit SK-7 fits the PX-9.\n",
    "./docs/report.docx": word_file("Pump PX-9 report", "The M10 bolts take 45 Nm."),
    "./manual.pdf": pdf_file("Replace the seal every 6 months."),
}


@pytest.mark.parametrize(
    ("mode", "name", "fmt"),
    [("w", "docs.tar", "tar"), ("w:gz", "docs.tar.gz", "gzip"), ("w:gz", "docs.tgz", "gzip"),
     ("w:bz2", "docs.tar.bz2", "bzip2"), ("w:xz", "docs.tar.xz", "xz")],
)  # fmt: skip
def test_a_tar_archive_compressed_or_not_is_read_as_a_zip_archive_is(mode: str, name: str, fmt: str) -> None:
    data = tar(MEMBERS, mode=mode, links=True)
    assert detect_format(data, name) == fmt
    document = parse_bytes(data, name)
    headings = [(b.level, b.text) for b in document.blocks() if isinstance(b, Heading)]
    assert headings == [
        (1, "docs/notes.md"), (2, "Field notes"), (1, "docs/report.docx"), (2, "Pump PX-9 report"), (3, "Torque"),
        (1, "manual.pdf"),
    ]  # fmt: skip
    texts = [block_text(b) for b in document.blocks()]
    assert texts[0] == "Files: docs/notes.md, docs/report.docx, manual.pdf"  # no folder, no link followed
    assert "Replace the seal every 6 months." in texts and not document.truncation


def test_one_compressed_file_is_read_as_the_file_it_holds_with_its_pages() -> None:
    pdf = gzip.compress(pdf_file("Torque table on page one.", "Seal kit on page two."))
    assert detect_format(pdf, "manual.pdf.gz") == "gzip" and expanded_name("manual.pdf.gz") == "manual.pdf"
    document = parse_bytes(pdf, "manual.pdf.gz")
    assert [(page.number, [block_text(b) for b in page.blocks]) for page in document.pages] == [
        (1, ["Torque table on page one."]), (2, ["Seal kit on page two."]),
    ]  # fmt: skip
    log = lzma.compress(b"2026-12-07 10:00 pump PX-9 started\n2026-12-07 10:05 pressure 4.2 bar\n")
    assert "pressure 4.2 bar" in " ".join(block_text(b) for b in parse_bytes(log, "server.log.xz").blocks())
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Bolt", "Nm"])
    workbook = io.BytesIO()
    book.save(workbook)
    assert (
        parse_bytes(gzip.compress(workbook.getvalue()), "torque.xlsx.gz").title == "torque.xlsx.gz"
    )  # not "torque.xlsx"
    notes = bz2.compress(b"# Notes\n\nThe M12 bolts take 80 Nm.\n")
    assert [b.text for b in parse_bytes(notes, "notes.md.bz2").blocks() if isinstance(b, Heading)] == ["Notes"]
    assert expanded_name("docs.TGZ") == "docs.tar" and expanded_name("plain.txt") == "plain.txt"


def test_bombs_files_compressed_twice_and_damaged_streams_end_as_a_status() -> None:
    bomb = gzip.compress(bytes(8 * 1024 * 1024))
    with pytest.raises(DocumentTooLargeError, match="decompression bomb guard"):
        parse_bytes(bomb, "zeros.bin.gz", limits=ParseLimits(max_bytes=1024 * 1024))
    with pytest.raises(UnsupportedFormatError, match="compressed twice"):
        parse_bytes(gzip.compress(gzip.compress(b"# A\n\ntext")), "twice.md.gz.gz")
    with pytest.raises(CorruptDocumentError, match="not a readable compressed file"):
        parse_bytes(gzip.compress(b"# A\n\n" + random.Random(1).randbytes(3000).hex().encode())[:2000], "cut.md.gz")
    with pytest.raises(UnsupportedFormatError, match="the file it holds is of a format docshelf does not read"):
        parse_bytes(gzip.compress(b"MZ\x90\x00" + bytes(300)), "tool.exe.gz")
    whole = tar({"a.md": "# A\n\nfirst", "b.md": "# B\n\n" + "second " * 2000})
    cut = parse_bytes(whole[:2500], "cut.tar")  # the second file's data cut off
    assert cut.truncation == "1 of 2 files read (b.md: corrupt)"


def test_an_archive_inside_an_archive_is_listed_and_citations_follow_what_a_file_holds() -> None:
    data = archive({"bundle.tar.gz": tar(MEMBERS, mode="w:gz"), "top.md": "# Top\n\nRead."})
    texts = [block_text(b) for b in parse_bytes(data, "outer.zip").blocks()]
    assert "Files: docs/notes.md, docs/report.docx, manual.pdf" in texts and "Seal kit SK-7 fits the PX-9." not in texts
    paged = Chunk(
        chunk_id="c1", document_id="d1", namespace="n", type="text", text="Seal.", section_path=("Seals",),
        pages=(2,), token_count=2, ordinal=0, source_file_name="manual.pdf.gz", source_key="manual.pdf.gz",
    )  # fmt: skip
    assert evidence_header(1, paged) == "[1] manual.pdf.gz › Seals, p. 2\n"
    for name in ("docs.tar.gz", "docs.tgz", "server.log.gz", "docs.zip"):
        pageless = replace(paged, source_key=name, source_file_name=name, pages=(1,))
        assert evidence_header(1, pageless) == f"[1] {name} › Seals\n"


def test_a_compressed_tar_is_read_as_a_stream_never_held_expanded() -> None:
    """Each file within the file size limit is read though the whole is past it; past the expansion limit, the
    files are named, not read; files come in the archive's order."""
    parts: dict[str, bytes | str] = {f"part{n}.md": f"# Part {n}\n\n" + "seal wear data " * 40_000 for n in (3, 1, 2)}
    data = tar(parts, mode="w:gz")
    roomy = ParseLimits(max_bytes=1024 * 1024)  # each file fits; the 1.8 MB the tar expands to does not
    document = parse_bytes(data, "parts.tar.gz", limits=roomy)
    assert [b.text for b in document.blocks() if isinstance(b, Heading) and b.level == 1] == [
        "part3.md", "part1.md", "part2.md",
    ]  # fmt: skip
    assert not document.truncation
    tight = ParseLimits(max_bytes=1024 * 1024, max_decompressed_bytes=1_500_000)
    cut = parse_bytes(data, "parts.tar.gz", limits=tight)
    assert [b.text for b in cut.blocks() if isinstance(b, Heading) and b.level == 1] == ["part3.md", "part1.md"]
    assert "files after these not read: expands to more than 1500000 bytes" in cut.truncation
