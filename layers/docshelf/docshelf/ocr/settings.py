"""Whether and how documents are OCR'd: environment settings, read when a document needs OCR.

- DOCSHELF_OCR: `off` (also `0`, `false`, `no`) keeps image pages un-OCR'd: such a document ends as `needs_ocr`
  (or `partial` when other pages have text), with the reason;
- DOCSHELF_OCR_LANGUAGES: Tesseract language codes joined by `+` (default `eng+chi_sim+jpn`; each page is read in
  the one a first pass finds, ocr/script.py);
- DOCSHELF_TESSDATA: the folder of the `.traineddata` files (and of PP-OCR's models, in its `ppocr/`); by default
  Lambda's OcrLayer (/opt/tessdata), else the one `make setup` fills (layers/docshelf/tessdata);
- DOCSHELF_OCR_CJK: `tesseract` reads Chinese and Japanese pages with Tesseract too; by default PP-OCRv6 reads them
  when its models and onnxruntime are installed (ocr/ppocr.py), and Tesseract then needs no model of theirs but the
  first pass's (`tesseract_models`).
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from docshelf.ocr.script import first_pass_language

OCR_ENV = "DOCSHELF_OCR"
LANGUAGES_ENV = "DOCSHELF_OCR_LANGUAGES"
TESSDATA_ENV = "DOCSHELF_TESSDATA"
CJK_ENV = "DOCSHELF_OCR_CJK"
PPOCR_FOLDER = "ppocr"
PPOCR_MODELS = ("det.onnx", "rec.onnx")
PPOCR_LANGUAGES = ("chi_sim", "jpn")  # the languages PP-OCRv6's models read (ocr/ppocr.py)
DEFAULT_LANGUAGES = ("eng", "chi_sim", "jpn")
LAMBDA_TESSDATA = Path("/opt/tessdata")
CHECKOUT_TESSDATA = Path(__file__).resolve().parents[2] / "tessdata"


@dataclass(frozen=True, slots=True)
class OcrSettings:
    enabled: bool = True
    languages: tuple[str, ...] = DEFAULT_LANGUAGES
    tessdata: Path = CHECKOUT_TESSDATA
    cjk_reader: bool = True  # PP-OCR for Chinese and Japanese pages, where installed


def ocr_settings() -> OcrSettings:
    enabled = os.environ.get(OCR_ENV, "on").strip().lower() not in ("off", "0", "false", "no")
    languages = tuple(code for code in os.environ.get(LANGUAGES_ENV, "").split("+") if code.strip())
    return OcrSettings(
        enabled=enabled,
        languages=tuple(code.strip() for code in languages) or DEFAULT_LANGUAGES,
        tessdata=_tessdata(),
        cjk_reader=os.environ.get(CJK_ENV, "").strip().lower() != "tesseract",
    )


def _tessdata() -> Path:
    configured = os.environ.get(TESSDATA_ENV, "").strip()
    if configured:
        return Path(configured)
    return LAMBDA_TESSDATA if LAMBDA_TESSDATA.is_dir() else CHECKOUT_TESSDATA


def unavailable_reason(settings: OcrSettings) -> str | None:
    """Why OCR cannot run with `settings` here (off, engine not installed, language data missing), or None."""
    if not settings.enabled:
        return f"OCR is turned off ({OCR_ENV}=off)"
    if importlib.util.find_spec("tesserocr") is None:
        return "the OCR engine is not installed (tesserocr)"
    missing = [code for code in tesseract_models(settings) if not (settings.tessdata / f"{code}.traineddata").is_file()]
    if missing:
        files = ", ".join(f"{code}.traineddata" for code in missing)
        return f"OCR language data missing: {files} not in {settings.tessdata}"
    return None


def tesseract_models(settings: OcrSettings) -> tuple[str, ...]:
    """The Tesseract models the configured languages need here: each language's own, but for the Chinese and Japanese
    that PP-OCR reads, which Tesseract needs only as the first pass's model (ocr/script.py). Lambda's OcrLayer
    therefore carries no chi_sim model."""
    if not (settings.cjk_reader and cjk_reader_available(settings)):
        return settings.languages
    first_pass = first_pass_language(settings.languages)
    return tuple(code for code in settings.languages if code not in PPOCR_LANGUAGES or code == first_pass)


def cjk_reader_available(settings: OcrSettings) -> bool:
    """Whether PP-OCR can read Chinese and Japanese pages here: onnxruntime and both models installed."""
    folder = settings.tessdata / PPOCR_FOLDER
    return importlib.util.find_spec("onnxruntime") is not None and all(
        (folder / name).is_file() for name in PPOCR_MODELS
    )
