"""OCR end to end: scans the tests render (English, Chinese, Japanese; clean and degraded) as PNG, TIFF and
image-only PDF read back through `parse_bytes`, with the character error rate printed and bounded; mixed PDFs;
OCR off or without its data; the corpus scans."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from docshelf.errors import DocumentTooLargeError, NeedsOcrError
from docshelf.model import Block, Document, Heading, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.tables import block_text, table_grid
from tests.support.scans import (
    PARAGRAPHS,
    character_error_rate,
    degrade,
    encode,
    render_columns,
    render_page,
    render_table_page,
)

pytestmark = pytest.mark.usefixtures("ocr_ready")
LANGUAGES = sorted(PARAGRAPHS)
# The bounds; measured: at most 1.5% clean and 1.7% degraded (Japanese) with the default languages.
CLEAN_CER = 0.02
DEGRADED_CER = 0.05


def _texts(blocks: Iterable[Block]) -> list[str]:
    return [block_text(block) for block in blocks]


def _text(document: Document) -> str:
    return "\n".join(_texts(document.blocks()))


def _cer(language: str, document: Document, what: str) -> float:
    rate = character_error_rate("\n".join(PARAGRAPHS[language]), _text(document))
    print(f"OCR {what} {language}: CER {rate:.4f}")
    return rate


@pytest.fixture(scope="module")
def pages() -> dict[str, Image.Image]:
    return {language: render_page(PARAGRAPHS[language], language) for language in LANGUAGES}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("fmt", ["png", "pdf"])
def test_a_clean_scan_reads_back_within_the_clean_bound(pages: dict[str, Image.Image], language: str, fmt: str) -> None:
    document = parse_bytes(encode([pages[language]], fmt), f"scan.{fmt}")
    assert _cer(language, document, f"clean {fmt}") <= CLEAN_CER
    blocks = document.blocks()
    assert len(blocks) == 3, "one paragraph per typeset paragraph, in reading order"
    assert all(isinstance(b, Paragraph) and b.ocr and b.confidence is not None and b.confidence > 0.8 for b in blocks)
    assert document.warnings == () and document.truncation == ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_degraded_scan_reads_back_within_the_degraded_bound(pages: dict[str, Image.Image], language: str) -> None:
    document = parse_bytes(encode([degrade(pages[language])], "png"), "worn.png")
    assert _cer(language, document, "degraded png") <= DEGRADED_CER


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_line_set_twice_as_large_as_the_text_is_a_heading(language: str) -> None:
    title = {"eng": "Maintenance Report", "chi_sim": "维护报告", "jpn": "保守報告書"}[language]
    document = parse_bytes(encode([render_page(PARAGRAPHS[language], language, title=title)], "png"), "titled.png")
    first, *rest = document.blocks()
    assert isinstance(first, Heading) and first.level == 1 and first.ocr
    # Measured: English whole; of the 4-5 Han characters 100 px tall, Tesseract's models misread one (报告 -> 报香).
    assert character_error_rate(title, first.text) <= (0.0 if language == "eng" else 0.25)
    assert [type(block) for block in rest] == [Paragraph] * 3
    assert document.title == first.text


def test_two_columns_are_read_column_by_column() -> None:
    left, right = PARAGRAPHS["eng"][:2], [PARAGRAPHS["eng"][2], "The right column ends with a note about valves."]
    document = parse_bytes(encode([render_columns(left, right)], "png"), "columns.png")
    texts = _texts(document.blocks())
    assert len(texts) == 4
    assert character_error_rate("\n".join(left + right), "\n".join(texts)) <= CLEAN_CER


TABLE = [
    ["Part", "Pressure", "Price"],
    ["TX-100", "200 bar", "189"],
    ["TX-200", "250 bar", "245"],
    ["Seal kit", "n/a", "19.90"],
]


@pytest.mark.parametrize(("fmt", "worn"), [("png", False), ("png", True), ("pdf", False)])
def test_a_ruled_table_is_a_table_between_its_paragraphs(fmt: str, worn: bool) -> None:
    page = render_table_page("The valves and their ratings are listed below.", TABLE, "Prices are in euros.")
    document = parse_bytes(encode([degrade(page) if worn else page], fmt), f"table.{fmt}")
    before, table, after = document.blocks()
    assert isinstance(table, Table) and table.ocr and table.confidence is not None and table.confidence > 0.8
    assert table_grid(table) == TABLE
    assert _texts([before, after]) == ["The valves and their ratings are listed below.", "Prices are in euros."]


def test_every_frame_of_a_multipage_tiff_is_a_page(pages: dict[str, Image.Image]) -> None:
    document = parse_bytes(encode([pages["eng"], pages["chi_sim"], pages["jpn"]], "tiff"), "fax.tiff")
    assert len(document.pages) == 3 and document.source.media_type == "image/tiff"
    for page, language in zip(document.pages, ["eng", "chi_sim", "jpn"], strict=True):
        text = "\n".join(_texts(page.blocks))
        rate = character_error_rate("\n".join(PARAGRAPHS[language]), text)
        print(f"OCR tiff page {page.number} {language}: CER {rate:.4f}")
        assert rate <= CLEAN_CER


def test_a_jpeg_photo_of_a_page_is_read(pages: dict[str, Image.Image]) -> None:
    document = parse_bytes(encode([pages["eng"]], "jpeg"), "photo.jpg")
    assert document.source.media_type == "image/jpeg"
    assert _cer("eng", document, "clean jpeg") <= CLEAN_CER


@pytest.mark.parametrize(("fmt", "media_type"), [("gif", "image/gif"), ("webp", "image/webp"), ("mpo", "image/jpeg")])
def test_a_gif_webp_or_camera_jpeg_is_one_picture_whatever_its_frames(
    pages: dict[str, Image.Image], fmt: str, media_type: str
) -> None:
    """A GIF's or WebP's frames are an animation and a camera JPEG's (MPO) the photo again: not pages."""
    buffer = io.BytesIO()
    first, second = pages["eng"].convert("RGB"), pages["chi_sim"].convert("RGB")
    first.save(
        buffer, fmt.upper(), save_all=True, append_images=[second], **({"lossless": True} if fmt == "webp" else {})
    )
    assert getattr(Image.open(io.BytesIO(buffer.getvalue())), "n_frames", 1) == 2
    document = parse_bytes(buffer.getvalue(), "upload")  # known by its bytes
    assert len(document.pages) == 1 and document.source.media_type == media_type
    assert _cer("eng", document, f"clean {fmt}") <= CLEAN_CER


def _mixed_pdf(picture: Image.Image) -> bytes:
    """Page 1 typed text; page 2 a scan; page 3 four characters of text over a picture of a paragraph."""
    width, height = A4
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, height - 72, "The typed page says that stem seals wear out in ten years.")
    pdf.showPage()
    pdf.drawImage(ImageReader(picture), 0, 0, width=width, height=height)
    pdf.showPage()
    pdf.drawImage(ImageReader(picture), 0, 0, width=width, height=height)
    pdf.setFont("Helvetica", 9)
    pdf.drawString(width - 60, 30, "p. 3")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_mixed_pdf_yields_the_typed_and_the_scanned_text(pages: dict[str, Image.Image]) -> None:
    document = parse_bytes(_mixed_pdf(pages["eng"]), "mixed.pdf")
    typed, scanned, stamped = ([block for block in page.blocks] for page in document.pages)
    assert _texts(typed) == ["The typed page says that stem seals wear out in ten years."]
    assert not any(isinstance(block, Paragraph) and block.ocr for block in typed)
    for blocks in (scanned, stamped):
        assert all(isinstance(block, Paragraph) and block.ocr for block in blocks)
        paragraphs = [text for text in _texts(blocks) if text.replace(" ", "") != "p.3"]
        assert character_error_rate("\n".join(PARAGRAPHS["eng"]), "\n".join(paragraphs)) <= CLEAN_CER
    assert _texts(stamped)[-1].replace(" ", "") == "p.3", "the rendered page holds the text layer's characters"
    assert document.truncation == ""


def test_a_page_with_a_real_text_layer_over_a_full_page_picture_is_not_ocrd(pages: dict[str, Image.Image]) -> None:
    width, height = A4
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.drawImage(ImageReader(pages["chi_sim"]), 0, 0, width=width, height=height)  # a background picture
    pdf.setFont("Helvetica", 11)
    for index in range(12):
        pdf.drawString(72, height - 300 - 14 * index, f"Typed line {index} over the picture, about seals and valves.")
    pdf.showPage()
    pdf.save()
    document = parse_bytes(buffer.getvalue(), "slide.pdf")
    assert not any(getattr(block, "ocr", False) for block in document.blocks())
    assert [block.kind for block in document.blocks()][:2] == ["image", "paragraph"]  # the picture is an asset
    assert "Typed line 11 over the picture" in _text(document) and "维护" not in _text(document)


def test_a_text_pdf_never_asks_for_ocr(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With no language data at all, a text PDF parses as before, without a word of OCR."""
    monkeypatch.setenv("DOCSHELF_TESSDATA", str(tmp_path))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.drawString(72, 720, "Only typed text here.")
    pdf.save()
    document = parse_bytes(buffer.getvalue(), "typed.pdf")
    assert _text(document) == "Only typed text here." and document.warnings == ()


def test_with_ocr_off_a_scan_and_an_image_need_ocr(
    pages: dict[str, Image.Image], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCSHELF_OCR", "off")
    with pytest.raises(NeedsOcrError, match=r"OCR is turned off \(DOCSHELF_OCR=off\)"):
        parse_bytes(encode([pages["eng"]], "pdf"), "scan.pdf")
    with pytest.raises(NeedsOcrError, match=r"'scan.png' is an image: OCR is turned off"):
        parse_bytes(encode([pages["eng"]], "png"), "scan.png")
    mixed = parse_bytes(_mixed_pdf(pages["eng"]), "mixed.pdf")
    assert mixed.truncation == "pages without a text layer (need OCR): 2, 3 (OCR is turned off (DOCSHELF_OCR=off))"


def test_missing_language_data_is_named(
    pages: dict[str, Image.Image], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "eng.traineddata").write_bytes(b"")
    monkeypatch.setenv("DOCSHELF_TESSDATA", str(tmp_path))
    with pytest.raises(NeedsOcrError) as raised:
        parse_bytes(encode([pages["eng"]], "png"), "scan.png")
    assert raised.value.message == (
        f"'scan.png' is an image: OCR language data missing: chi_sim.traineddata, jpn.traineddata not in {tmp_path}"
    )


def test_ocr_languages_setting_limits_the_models(
    pages: dict[str, Image.Image], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCSHELF_OCR_LANGUAGES", "eng")
    document = parse_bytes(encode([pages["eng"]], "png"), "scan.png")
    assert _cer("eng", document, "eng-only png") <= CLEAN_CER


def test_an_image_over_the_pixel_limit_is_too_large_before_decoding() -> None:
    small = encode([Image.new("L", (400, 300), 255)], "png")
    with pytest.raises(DocumentTooLargeError, match=r"page 1 is 400x300 pixels, over the limit of 100,000"):
        parse_bytes(small, "big.png", limits=ParseLimits(max_image_pixels=100_000))
    bomb = io.BytesIO()
    Image.new("1", (15_000, 15_000), 1).save(bomb, "PNG")  # 225 million pixels in a few hundred KB
    with pytest.raises(DocumentTooLargeError):
        parse_bytes(bomb.getvalue(), "bomb.png")


def test_a_tiff_over_the_page_limit_is_too_large() -> None:
    frames = [Image.new("L", (50, 50), 255) for _ in range(4)]
    with pytest.raises(DocumentTooLargeError, match="4 pages is over the limit of 3"):
        parse_bytes(encode(frames, "tiff"), "many.tiff", limits=ParseLimits(max_pages=3))


@pytest.mark.corpus
def test_the_corpus_scans_yield_their_text(corpus_dir: Path) -> None:
    document = parse_bytes((corpus_dir / "pdf" / "ocr_test.pdf").read_bytes(), "ocr_test.pdf")
    reference = (corpus_dir / "groundtruth" / "pdf" / "ocr_test.pdf.docling-tesseract.md").read_text(encoding="utf-8")
    rate = character_error_rate(re.sub(r"<!--.*?-->", " ", reference), _text(document))
    print(f"OCR corpus ocr_test.pdf: CER {rate:.4f} against its reference")
    assert rate <= CLEAN_CER and all(isinstance(b, Paragraph) and b.ocr for b in document.blocks())
    lorem = parse_bytes((corpus_dir / "pdf" / "loremipsum-flat.pdf").read_bytes(), "loremipsum-flat.pdf")
    words = _text(lorem).split()
    assert len(words) > 300 and _text(lorem).startswith("Lorem ipsum dolor sit amet, consectetur adipiscing elit.")
    noisy = parse_bytes((corpus_dir / "pdf" / "pdf-with-ocr-text.pdf").read_bytes(), "pdf-with-ocr-text.pdf")
    assert "Foundation" in _text(noisy), "its own (noisy) text layer is a real text layer: kept, never OCR'd"


def test_a_cached_parse_that_skipped_ocr_is_parsed_again_once_ocr_can_run(
    pages: dict[str, Image.Image], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from docshelf.config import PipelineConfig
    from docshelf.pipeline.outcomes import ParseOutcome
    from docshelf.pipeline.parse import parse_stage
    from docshelf.store.local import LocalStore

    store, data = LocalStore(tmp_path), _mixed_pdf(pages["eng"])

    def parse() -> ParseOutcome:
        return parse_stage(store, data, namespace="ns", source_key="mixed.pdf", config=PipelineConfig())

    monkeypatch.setenv("DOCSHELF_OCR", "off")
    without = parse()
    assert without.document is not None and without.document.truncation.startswith("pages without a text layer")
    assert parse().cache_hit
    monkeypatch.setenv("DOCSHELF_OCR", "on")
    again = parse()
    assert not again.cache_hit and again.document is not None and again.document.truncation == ""
    assert "Three stem seals were replaced in March." in _text(again.document)
    assert parse().cache_hit


def test_ocrd_pages_read_in_page_ranges_merge_to_the_whole_parse(pages: dict[str, Image.Image]) -> None:
    """Each range OCRs its own scans where it is read (on AWS, its own invocation); the merge gets their blocks."""
    from docshelf.parsers import parse_with_assets
    from docshelf.parsers.pdf.pdf_ranges import PdfPlan, merge_pdf_ranges, plan_pdf, read_pdf_range
    from docshelf.serde import dumps, loads

    width, height = A4
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for number in range(1, 7):
        if number % 2 == 0:
            pdf.drawImage(ImageReader(pages["eng"]), 0, 0, width=width, height=height)
        else:
            pdf.drawString(72, height - 72, f"Typed page {number} about the pump.")
        pdf.showPage()
    pdf.save()
    data = buffer.getvalue()
    limits = ParseLimits(text_pages_per_range=2, scanned_pages_per_range=1)
    plan = PdfPlan.from_dict(loads(dumps(plan_pdf(data, "mixed.pdf", limits=limits).to_dict())))
    assert len(plan.ranges) > 2
    ranges = [loads(dumps(read_pdf_range(data, "mixed.pdf", span, limits=limits))) for span in plan.ranges]
    document, assets = merge_pdf_ranges(plan, ranges, limits=limits)
    assert (document, assets) == parse_with_assets(data, "mixed.pdf", uri="mixed.pdf")
    ocrd = [block for block in document.blocks() if getattr(block, "ocr", False)]
    assert {block.page for block in ocrd} == {2, 4, 6}
    for number in (2, 4, 6):
        page_text = "\n".join(_texts(block for block in ocrd if block.page == number))
        assert character_error_rate("\n".join(PARAGRAPHS["eng"]), page_text) <= CLEAN_CER


def test_text_in_an_embedded_picture_is_read_into_its_image_chunk(pages: dict[str, Image.Image]) -> None:
    import docx
    from docx.shared import Inches

    from docshelf.chunking import chunk_document
    from docshelf.parsers import parse_with_assets

    picture = io.BytesIO()
    pages["eng"].save(picture, "PNG")
    picture.seek(0)
    word = docx.Document()
    word.add_paragraph("The screenshot below shows the maintenance notes.")
    word.add_picture(picture, width=Inches(6))
    saved = io.BytesIO()
    word.save(saved)
    document, assets = parse_with_assets(saved.getvalue(), "notes.docx")
    [image] = [block for block in document.blocks() if block.kind == "image"]
    assert image.asset_ref in assets
    assert character_error_rate("\n".join(PARAGRAPHS["eng"]), image.ocr_text) <= CLEAN_CER
    chunks = chunk_document(document, document_id="d1", namespace="ns")
    [image_chunk] = [chunk for chunk in chunks if chunk.type == "image"]
    assert PARAGRAPHS["eng"][0][:40] in image_chunk.text.replace("\n", " ")


def test_without_ocr_an_embedded_picture_keeps_its_asset_and_no_text(
    pages: dict[str, Image.Image], monkeypatch: pytest.MonkeyPatch
) -> None:
    import docx

    from docshelf.parsers import parse_with_assets

    monkeypatch.setenv("DOCSHELF_OCR", "off")
    picture = io.BytesIO()
    pages["eng"].save(picture, "PNG")
    picture.seek(0)
    word = docx.Document()
    word.add_paragraph("A picture follows.")
    word.add_picture(picture)
    saved = io.BytesIO()
    word.save(saved)
    document, assets = parse_with_assets(saved.getvalue(), "notes.docx")
    [image] = [block for block in document.blocks() if block.kind == "image"]
    assert image.ocr_text == "" and image.asset_ref in assets


def _picture_only_docx(picture: Image.Image) -> bytes:
    import docx

    body = io.BytesIO()
    picture.save(body, "PNG")
    body.seek(0)
    word = docx.Document()
    word.add_picture(body)
    saved = io.BytesIO()
    word.save(saved)
    return saved.getvalue()


def test_a_document_of_one_picture_is_read_by_ocr(pages: dict[str, Image.Image]) -> None:
    from docshelf.parsers import parse_with_assets

    document, _ = parse_with_assets(_picture_only_docx(pages["eng"]), "scan.docx")
    [image] = list(document.blocks())
    assert image.kind == "image"
    assert character_error_rate("\n".join(PARAGRAPHS["eng"]), image.ocr_text) <= CLEAN_CER


def test_a_document_of_pictures_without_text_ends_empty_or_needs_ocr(
    pages: dict[str, Image.Image], monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.errors import EmptyDocumentError, NeedsOcrError
    from docshelf.parsers import parse_with_assets

    blank = Image.new("RGB", (400, 300), "white")
    with pytest.raises(EmptyDocumentError, match="in its text or its pictures"):
        parse_with_assets(_picture_only_docx(blank), "blank.docx")
    monkeypatch.setenv("DOCSHELF_OCR", "off")
    with pytest.raises(NeedsOcrError, match="holds only pictures"):
        parse_with_assets(_picture_only_docx(pages["eng"]), "scan.docx")


def test_leptonica_writes_nothing_to_stderr(corpus_dir: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from docshelf.parsers import parse_with_assets

    capfd.readouterr()
    # Tesseract's layout analysis of this file's pictures made leptonica print "Error in boxClipToRectangle".
    parse_with_assets((corpus_dir / "pdf" / "reliance.pdf").read_bytes(), "reliance.pdf")
    assert "Error in" not in capfd.readouterr().err
