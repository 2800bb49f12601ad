"""Chinese and Japanese pages read by PP-OCR (ocr/ppocr.py) through the parser; English by Tesseract; Tesseract for
all when DOCSHELF_OCR_CJK=tesseract. Pages in IPA Mincho and AR PL UMing with a title, full-width identifiers and an
extension number, as bench/ocr_bench.py renders them (its measured figures: docs/evaluation/ocr.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bench.ocr_bench import CJK_PAGES
from docshelf.model import Heading
from docshelf.ocr.blocks import preload, recognise_page
from docshelf.ocr.engine import ScriptRoutedEngine, TesseractEngine, shared_engine
from docshelf.ocr.ppocr import PpOcrEngine
from docshelf.ocr.settings import (
    PPOCR_FOLDER,
    cjk_reader_available,
    ocr_settings,
    tesseract_models,
    unavailable_reason,
)
from docshelf.parsers import parse_bytes
from docshelf.tables import block_text
from tests.support.scans import SCRIPT_FONTS, character_error_rate, degrade, encode, normalise, render_page

pytestmark = pytest.mark.usefixtures("ocr_ready")
FACES = {"jpn": "IPA Mincho", "chi_sim": "AR PL UMing"}


@pytest.fixture(autouse=True)
def pp_ocr_installed() -> None:
    if not cjk_reader_available(ocr_settings()):
        pytest.fail("PP-OCR's models or onnxruntime are missing: `make setup` places them", pytrace=False)


def test_the_process_engine_routes_cjk_pages_to_pp_ocr_and_the_rest_to_tesseract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = shared_engine(ocr_settings())
    assert isinstance(engine, ScriptRoutedEngine)
    assert isinstance(engine.first_pass, TesseractEngine)
    assert isinstance(engine._reader(("jpn",)), PpOcrEngine)
    assert isinstance(engine._reader(("chi_sim",)), PpOcrEngine)
    assert engine._reader(("eng",)) is engine.first_pass
    monkeypatch.setenv("DOCSHELF_OCR_CJK", "tesseract")
    assert isinstance(shared_engine(ocr_settings()), TesseractEngine)


@pytest.mark.parametrize("language", sorted(CJK_PAGES))
@pytest.mark.parametrize("worn", [False, True])
def test_a_cjk_scan_reads_back_nearly_whole_with_its_title_and_identifiers(language: str, worn: bool) -> None:
    title, paragraphs = CJK_PAGES[language]
    font = SCRIPT_FONTS[language][FACES[language]]
    if not font.is_file():
        pytest.fail(f"{font.name} missing: `make setup` places it", pytrace=False)
    page = render_page(paragraphs, language, points=12, title=title, font_file=font)
    document = parse_bytes(encode([degrade(page) if worn else page], "png"), "scan.png")
    text = "\n".join(block_text(block) for block in document.blocks())
    rate = character_error_rate("\n".join([title, *paragraphs]), text)
    print(f"PP-OCR {language} {'degraded' if worn else 'clean'}: CER {rate:.4f}")
    assert rate <= 0.01  # measured 0-0.6% (Tesseract's script models: 1.6-2.6%)
    found = normalise(text).replace(" ", "")
    assert all(identifier in found for identifier in ("TX-100", "TX-200", "3305"))
    first = document.blocks()[0]
    assert isinstance(first, Heading) and first.text == title  # level 1 clean; 2 on the skewed page


def test_preloading_loads_tesseract_only_for_what_it_reads_and_pp_ocr_for_the_cjk_pages() -> None:
    settings = ocr_settings()
    tesseract = TesseractEngine(settings.tessdata)
    pp_ocr = PpOcrEngine(settings.tessdata / PPOCR_FOLDER)
    preload(ScriptRoutedEngine(tesseract, pp_ocr), settings)
    assert set(tesseract._apis) == {("jpn",), ("eng",)}  # the first pass's and English's; no chi_sim
    assert pp_ocr._sessions is not None


def test_a_chinese_scan_needs_no_tesseract_chinese_model_where_pp_ocr_reads_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Lambda's OcrLayer: eng and jpn (the first pass) for Tesseract, PP-OCR's models, no chi_sim.traineddata."""
    placed = ocr_settings().tessdata
    for name in ("eng.traineddata", "jpn.traineddata", PPOCR_FOLDER):
        (tmp_path / name).symlink_to(placed / name)
    monkeypatch.setenv("DOCSHELF_TESSDATA", str(tmp_path))
    assert tesseract_models(ocr_settings()) == ("eng", "jpn") and unavailable_reason(ocr_settings()) is None
    title, paragraphs = CJK_PAGES["chi_sim"]
    page = render_page(paragraphs, "chi_sim", points=12, title=title, font_file=SCRIPT_FONTS["chi_sim"]["AR PL UMing"])
    text = "\n".join(block_text(block) for block in parse_bytes(encode([page], "png"), "scan.png").blocks())
    assert character_error_rate("\n".join([title, *paragraphs]), text) <= 0.01
    monkeypatch.setenv("DOCSHELF_OCR_CJK", "tesseract")  # Tesseract reading Chinese pages needs its model again
    assert unavailable_reason(ocr_settings()) == (f"OCR language data missing: chi_sim.traineddata not in {tmp_path}")


class _Counting:
    """A real engine, its page readings counted by the languages asked."""

    def __init__(self, engine: object) -> None:
        self.engine = engine
        self.calls: list[tuple[str, ...]] = []

    def load(self, languages: tuple[str, ...]) -> None:
        self.engine.load(languages)  # type: ignore[attr-defined]

    def recognise(self, image: object, languages: tuple[str, ...], *, dpi: int | None) -> object:
        self.calls.append(languages)
        return self.engine.recognise(image, languages, dpi=dpi)  # type: ignore[attr-defined]


def test_a_picture_without_letters_at_the_first_pass_is_read_by_tesseract_not_pp_ocr() -> None:
    """A chart or a screenshot whose text the first pass (a third of the resolution) cannot see: the first pass's
    model reads it whole, as before PP-OCR, at a fifth of PP-OCR's CPU; a Chinese page still goes to PP-OCR."""
    settings = ocr_settings()
    pp_ocr = _Counting(PpOcrEngine(settings.tessdata / PPOCR_FOLDER))
    engine = ScriptRoutedEngine(TesseractEngine(settings.tessdata), pp_ocr)  # type: ignore[arg-type]
    chart = Image.new("L", (900, 600), 255)
    draw = ImageDraw.Draw(chart)
    draw.rectangle((100, 100, 800, 500), outline=0, width=4)
    draw.line((100, 500, 450, 200, 800, 350), fill=0, width=4)
    recognise_page(engine, chart, settings, 1, dpi=None)
    assert pp_ocr.calls == []
    title, paragraphs = CJK_PAGES["chi_sim"]
    page = render_page(paragraphs, "chi_sim", points=12, title=title, font_file=SCRIPT_FONTS["chi_sim"]["AR PL UMing"])
    recognise_page(engine, page, settings, 1, dpi=300)
    assert pp_ocr.calls and all(call == ("chi_sim",) for call in pp_ocr.calls)
