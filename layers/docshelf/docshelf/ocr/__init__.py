"""Offline OCR: an engine behind one small interface (`OcrEngine`), Tesseract by default, and the typed blocks
OCR'd text becomes."""

from docshelf.ocr.engine import OcrEngine, OcrUnavailableError, TesseractEngine, shared_engine
from docshelf.ocr.model import OcrLine, OcrPage, OcrParagraph, OcrWord
from docshelf.ocr.settings import OcrSettings, ocr_settings

__all__ = [
    "OcrEngine",
    "OcrLine",
    "OcrPage",
    "OcrParagraph",
    "OcrSettings",
    "OcrUnavailableError",
    "OcrWord",
    "TesseractEngine",
    "ocr_settings",
    "shared_engine",
]
