from __future__ import annotations

import ctypes
import io
import re
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader, PdfWriter
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf.errors import CorruptDocumentError, DocumentError, EncryptedDocumentError, NeedsOcrError
from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf import parse
from docshelf.parsers.pdf_chars import object_texts
from docshelf.parsers.pdf_headings import numbering_level
from docshelf.tables import table_to_markdown

WIDTH, HEIGHT = A4
LEFT_COLUMN = [
    "Alpha streams carry the first column",
    "across several lines of a paragraph",
    "so that merging is checked properly.",
]
RIGHT_COLUMN = [
    "Beta streams fill the second column",
    "and must come after all of the first",
    "when the page is read by columns.",
]


def _parse(data: bytes, name: str = "test.pdf") -> ParsedContent:
    return parse(data, filename=name, limits=ParseLimits())


def _texts(content: ParsedContent) -> list[str]:
    return [block.text for block in content.blocks if block.kind != "table"]


def _furniture(pdf: canvas.Canvas, page: int) -> None:
    pdf.setFont("Helvetica", 8)
    pdf.drawString(72, HEIGHT - 30, "ACME Quarterly Report - Confidential")
    pdf.drawString(72, 30, "Printed for internal use only")
    pdf.drawRightString(WIDTH - 72, 30, str(page))


def _two_column_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for page in range(1, 4):
        _furniture(pdf, page)
        pdf.setFont("Helvetica-Bold", 18)
        pdf.drawString(72, HEIGHT - 90, f"{page} Results of phase {page}")
        pdf.bookmarkPage(f"p{page}")
        pdf.addOutlineEntry(f"{page} Results of phase {page}", f"p{page}", level=0)
        pdf.setFont("Helvetica", 10)
        for index, line in enumerate(LEFT_COLUMN):
            pdf.drawString(72, HEIGHT - 130 - 12 * index, line)
        for index, line in enumerate(RIGHT_COLUMN):
            pdf.drawString(WIDTH / 2 + 10, HEIGHT - 130 - 12 * index, line)
        pdf.setFont("Helvetica-Bold", 14)
        pdf.drawString(72, HEIGHT - 200, "Unlisted findings")
        pdf.setFont("Helvetica", 10)
        pdf.drawString(
            72, HEIGHT - 220, f"Closing remark number {page} for the record, set across the full text width."
        )
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _image_only_pdf() -> bytes:
    from PIL import Image as PilImage
    from reportlab.lib.utils import ImageReader

    picture = PilImage.new("RGB", (200, 280), "white")
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.drawImage(ImageReader(picture), 0, 0, width=WIDTH, height=HEIGHT)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _simple_pdf(lines: list[str]) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 11)
    for index, line in enumerate(lines):
        pdf.drawString(72, HEIGHT - 100 - 14 * index, line)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _encrypt(data: bytes, *, user: str, owner: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user, owner_password=owner, algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_two_columns_headings_outline_and_furniture() -> None:
    content = _parse(_two_column_pdf())
    assert content.page_count == 3
    texts = _texts(content)
    assert not any("ACME" in text or "internal use" in text for text in texts)
    assert not any(re.fullmatch(r"\d", text) for text in texts)
    first_page = [block for block in content.blocks if block.page == 1]
    assert first_page == [
        Heading(text="1 Results of phase 1", level=1, page=1),
        Paragraph(text=" ".join(LEFT_COLUMN), page=1),
        Paragraph(text=" ".join(RIGHT_COLUMN), page=1),
        Heading(text="Unlisted findings", level=2, page=1),
        Paragraph(text="Closing remark number 1 for the record, set across the full text width.", page=1),
    ]
    assert [(b.text, b.level, b.page) for b in content.blocks if isinstance(b, Heading)][2:] == [
        ("2 Results of phase 2", 1, 2),
        ("Unlisted findings", 2, 2),
        ("3 Results of phase 3", 1, 3),
        ("Unlisted findings", 2, 3),
    ]


def _ruled_table_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, HEIGHT - 80, "Inventory by warehouse.")
    rows = [["Item", "Count", "Site"], ["Bolts", "120", "North"], ["Nuts", "75", "South"]]
    xs, ys = [72, 200, 300, 420], [HEIGHT - 100, HEIGHT - 120, HEIGHT - 140, HEIGHT - 160]
    pdf.grid(xs, ys)
    pdf.setFont("Helvetica", 10)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            pdf.drawString(xs[c] + 4, ys[r] - 14, text)
    pdf.drawString(72, HEIGHT - 190, "Counts are taken weekly.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_ruled_table_is_a_table_and_its_text_is_not_repeated() -> None:
    content = _parse(_ruled_table_pdf())
    kinds = [block.kind for block in content.blocks]
    assert kinds == ["paragraph", "table", "paragraph"]
    table = content.blocks[1]
    assert isinstance(table, Table)
    assert (table.n_rows, table.n_cols, table.header_rows) == (3, 3, 1)
    assert [(cell.row, cell.col, cell.text) for cell in table.cells] == [
        (0, 0, "Item"), (0, 1, "Count"), (0, 2, "Site"),
        (1, 0, "Bolts"), (1, 1, "120"), (1, 2, "North"),
        (2, 0, "Nuts"), (2, 1, "75"), (2, 2, "South"),
    ]  # fmt: skip
    assert _texts(content) == ["Inventory by warehouse.", "Counts are taken weekly."]


def test_image_only_page_needs_ocr() -> None:
    with pytest.raises(NeedsOcrError):
        _parse(_image_only_pdf())


def test_user_password_is_encrypted_error() -> None:
    with pytest.raises(EncryptedDocumentError):
        _parse(_encrypt(_simple_pdf(["Secret plans"]), user="secret", owner="owner"))


def test_owner_password_only_opens_with_the_empty_password() -> None:
    content = _parse(_encrypt(_simple_pdf(["Readable by anyone"]), user="", owner="owner"))
    assert _texts(content) == ["Readable by anyone"]


def test_garbage_is_corrupt() -> None:
    with pytest.raises(CorruptDocumentError):
        _parse(b"%PDF-1.7\n" + b"\x00garbage" * 50)


def test_hyphenated_lines_are_joined_into_one_paragraph() -> None:
    content = _parse(
        _simple_pdf(["The parser joins hyphen-", "ated words across lines and keeps", "the paragraph whole."])
    )
    assert _texts(content) == ["The parser joins hyphenated words across lines and keeps the paragraph whole."]


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("1.2.3 Scope of work", 3),
        ("4 Results", 1),
        ("Chapter 4 The end", 1),
        ("第一章 总则", 1),
        ("第1節 概要", 2),
        ("1. install the package", None),
        ("2 4 0.923 0.945", None),
        ("Plain sentence", None),
    ],
)
def test_numbering_levels(text: str, level: int | None) -> None:
    assert numbering_level(text) == level


CORPUS_ERRORS = {
    "2206.01062_pg3_password.pdf": "encrypted",
    "ocr_test.pdf": "needs_ocr",
    "loremipsum-flat.pdf": "needs_ocr",
}
CORPUS_RECALL = {"redp5110_sampled.pdf": (0.95, 0.8), "2305.03393v1-pg9.pdf": (0.95, 0.8)}


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.replace("\\_", "_").lower())


def _recall(content: ParsedContent, reference: str) -> tuple[float, float]:
    body = re.sub(r"<!--.*?-->", " ", reference)
    ours = Counter(_words("\n".join(table_to_markdown(b) if b.kind == "table" else b.text for b in content.blocks)))
    expected = Counter(_words(body))
    text_recall = sum(min(count, ours[word]) for word, count in expected.items()) / max(1, expected.total())
    headings = [" ".join(_words(line.lstrip("#"))) for line in reference.splitlines() if line.startswith("#")]
    found = {" ".join(_words(block.text)) for block in content.blocks if block.kind == "heading"}
    heading_recall = sum(1 for heading in headings if heading in found) / max(1, len(headings))
    return text_recall, heading_recall


@pytest.mark.corpus
def test_corpus_pdfs(corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "pdf").glob("*.pdf"))
    assert files
    for path in files:
        expected_error = CORPUS_ERRORS.get(path.name)
        try:
            content = _parse(path.read_bytes(), path.name)
        except DocumentError as exc:
            assert exc.code == expected_error, f"{path.name}: {exc.code} {exc}"
            continue
        assert expected_error is None, f"{path.name} parsed but should fail with {expected_error}"
        text = "".join(block.text for block in content.blocks if block.kind != "table")
        assert len(text) > 200, path.name
        assert "None" not in {block.text for block in content.blocks if block.kind != "table"}
        reference = corpus_dir / "groundtruth" / "pdf" / f"{path.name}.docling.md"
        if reference.is_file():
            text_recall, heading_recall = _recall(content, reference.read_text(encoding="utf-8"))
            print(f"{path.name}: text recall {text_recall:.3f}, heading recall {heading_recall:.2f}")
            minimum_text, minimum_headings = CORPUS_RECALL.get(path.name, (0.8, 0.0))
            assert text_recall >= minimum_text, path.name
            assert heading_recall >= minimum_headings, path.name


def _text_objects(container: object, *, is_form: bool = False) -> list[object]:
    count = pdfium_c.FPDFFormObj_CountObjects if is_form else pdfium_c.FPDFPage_CountObjects
    get = pdfium_c.FPDFFormObj_GetObject if is_form else pdfium_c.FPDFPage_GetObject
    found: list[object] = []
    for index in range(count(container)):
        obj = get(container, index)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            found.append(obj)
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            found.extend(_text_objects(obj, is_form=True))
    return found


def _object_text_mismatches(data: bytes) -> tuple[int, list[str]]:
    """Compare the page-wide object texts with PDFium's per-object FPDFTextObj_GetText on every page."""
    buffer = (ctypes.c_ushort * 65536)()
    document = pdfium.PdfDocument(data)
    checked, mismatches = 0, []
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            texts = object_texts(textpage.raw)
            if texts is None:
                textpage.close()
                page.close()
                continue
            for obj in _text_objects(page.raw):
                n_bytes = pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, buffer, 2 * len(buffer))
                expected = ctypes.string_at(buffer, n_bytes - 2).decode("utf-16-le", "replace") if n_bytes > 2 else ""
                actual = texts.get(ctypes.addressof(obj.contents), "").replace("\x00", "")  # type: ignore[attr-defined]
                checked += 1
                if actual != expected:
                    mismatches.append(f"page {index + 1}: {expected!r} != {actual!r}")
            textpage.close()
            page.close()
    finally:
        document.close()
    return checked, mismatches


def test_page_wide_object_texts_match_pdfium_per_object_texts() -> None:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, 700, "First object on the line")
    pdf.drawString(250, 700, "second object")
    pdf.drawString(340, 700, "glued")
    pdf.drawString(368, 700, "words")
    text = pdf.beginText(72, 650)
    text.textLines(["one text object", "over three lines", "of the same block"])
    pdf.drawText(text)
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(72, 560, "Heading in bold")
    pdf.showPage()
    pdf.save()
    checked, mismatches = _object_text_mismatches(buffer.getvalue())
    assert checked >= 6
    assert mismatches == []


@pytest.mark.corpus
def test_corpus_object_texts_match_pdfium_per_object_texts(corpus_dir: Path) -> None:
    total = 0
    for path in sorted((corpus_dir / "pdf").glob("*.pdf")):
        if path.name in CORPUS_ERRORS:
            continue
        checked, mismatches = _object_text_mismatches(path.read_bytes())
        total += checked  # pages whose text index is not 1:1 are skipped: the parser asks per object there
        assert mismatches == [], f"{path.name}: {mismatches[:5]}"
    assert total > 10_000
