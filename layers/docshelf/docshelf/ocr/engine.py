"""The OCR engine contract, its Tesseract implementation (tesserocr, libtesseract 5 with LSTM models), and the engine
a process uses: Tesseract for pages in Latin script and for the first pass that finds a page's script, PP-OCRv6
(ocr/ppocr.py) for Chinese and Japanese pages when its models are installed (docs/evaluation/ocr.md).

One engine per process, reused: initialising Tesseract with its models costs about a second per language set.
Tesseract's API object is not thread-safe, so every call holds the engine's lock; parallel pages run in forked
processes (`parsers/pdf_workers`), each with its own copy of the engine initialised before the fork.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from docshelf.ocr.model import Box, OcrLine, OcrPage, OcrParagraph, OcrWord
from docshelf.ocr.quiet import quiet_leptonica
from docshelf.ocr.script import CJK_LANGUAGES
from docshelf.ocr.settings import PPOCR_FOLDER, OcrSettings, cjk_reader_available, unavailable_reason

if TYPE_CHECKING:
    from PIL.Image import Image


class OcrUnavailableError(Exception):
    """OCR cannot run here: off by setting, the engine not installed, or a language's data missing."""


class OcrEngine(Protocol):
    name: str

    def load(self, languages: tuple[str, ...]) -> None:
        """Load the languages' models now (before forking page workers, which then share them)."""
        ...

    def recognise(self, image: Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        """The text of `image` (rendered or scanned at `dpi`, None when unknown) in the given languages, in
        reading order."""
        ...


class TesseractEngine:
    name = "tesseract"

    def __init__(self, tessdata: Path) -> None:
        import tesserocr  # the OcrLayer's; imported here so that a missing engine is a status, not an import error

        quiet_leptonica(tesserocr)
        self._tesserocr = tesserocr
        self._tessdata = tessdata
        self._apis: dict[tuple[str, ...], Any] = {}
        self._lock = threading.Lock()

    def load(self, languages: tuple[str, ...]) -> None:
        with self._lock:
            self._api(languages)

    def recognise(self, image: Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        return self._recognise(image, languages, dpi, line=False)

    def recognise_line(self, image: Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        """The text of an image holding one line of text (page layout analysis left out)."""
        return self._recognise(image, languages, dpi, line=True)

    def _recognise(self, image: Image, languages: tuple[str, ...], dpi: int | None, *, line: bool) -> OcrPage:
        with self._lock:
            api = self._api(languages, line=line)
            api.SetImage(image)
            if dpi:
                api.SetSourceResolution(dpi)
            api.Recognize()
            page = _read_result(self._tesserocr, api.GetIterator(), image.width, image.height)
            api.Clear()
            return page

    def _api(self, languages: tuple[str, ...], *, line: bool = False) -> Any:
        key = (*languages, "/line") if line else languages
        api = self._apis.get(key)
        if api is None:
            tesserocr = self._tesserocr
            # PSM.AUTO lays the page out without orientation detection, so no `osd` model is needed.
            try:
                api = tesserocr.PyTessBaseAPI(
                    path=str(self._tessdata),
                    lang="+".join(languages),
                    psm=tesserocr.PSM.SINGLE_LINE if line else tesserocr.PSM.AUTO,
                    oem=tesserocr.OEM.LSTM_ONLY,
                )
            except RuntimeError as exc:  # unreadable language data
                raise OcrUnavailableError(f"Tesseract could not load {'+'.join(languages)}: {exc}") from exc
            self._apis[key] = api
        return api


def _read_result(tesserocr: Any, iterator: Any, width: int, height: int) -> OcrPage:
    """Words grouped into Tesseract's lines and paragraphs, in its reading order."""
    word, line_level, para_level = tesserocr.RIL.WORD, tesserocr.RIL.TEXTLINE, tesserocr.RIL.PARA
    paragraphs: list[list[OcrLine]] = []
    words: list[OcrWord] = []
    line_box: Box = (0, 0, 0, 0)
    for item in tesserocr.iterate_level(iterator, word) if iterator is not None else ():
        starts_line = item.IsAtBeginningOf(line_level)
        if starts_line and words:
            paragraphs[-1].append(OcrLine(tuple(words), line_box))
            words = []
        if item.IsAtBeginningOf(para_level) or not paragraphs:
            paragraphs.append([])
        if starts_line:
            line_box = item.BoundingBox(line_level) or (0, 0, 0, 0)
        text = _word_text(item, word)
        if text:
            words.append(OcrWord(text, item.BoundingBox(word), max(0.0, min(1.0, item.Confidence(word) / 100))))
    if words:
        paragraphs[-1].append(OcrLine(tuple(words), line_box))
    kept = tuple(OcrParagraph(tuple(lines)) for lines in paragraphs if lines)
    return OcrPage(width=width, height=height, paragraphs=kept)


def _word_text(item: Any, level: Any) -> str:
    try:
        return str(item.GetUTF8Text(level) or "").strip()
    except RuntimeError:  # tesserocr's "No text returned": an empty result (a blank page)
        return ""


class ScriptRoutedEngine:
    """Chinese and Japanese pages read by PP-OCR, every other page (and the first pass) by Tesseract."""

    name = "tesseract+pp-ocrv6"

    def __init__(self, tesseract: TesseractEngine, cjk: OcrEngine) -> None:
        self.first_pass = tesseract
        self._cjk = cjk

    def _reader(self, languages: tuple[str, ...]) -> OcrEngine:
        return self._cjk if languages and all(code in CJK_LANGUAGES for code in languages) else self.first_pass

    def load(self, languages: tuple[str, ...]) -> None:
        self._reader(languages).load(languages)

    def recognise(self, image: Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        return self._reader(languages).recognise(image, languages, dpi=dpi)

    def recognise_line(self, image: Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        """A large line read again by the engine that read its page."""
        reader = self._reader(languages)
        if isinstance(reader, TesseractEngine):
            return reader.recognise_line(image, languages, dpi=dpi)
        return reader.recognise(image, languages, dpi=dpi)


_shared: dict[tuple[Path, bool], OcrEngine] = {}
_shared_lock = threading.Lock()


def shared_engine(settings: OcrSettings) -> OcrEngine:
    """The process's engine for `settings`, checked usable: OcrUnavailableError says exactly what is missing."""
    reason = unavailable_reason(settings)
    if reason is not None:
        raise OcrUnavailableError(reason)
    with _shared_lock:
        key = (settings.tessdata, settings.cjk_reader)
        engine = _shared.get(key)
        if engine is None:
            try:
                engine = TesseractEngine(settings.tessdata)
            except ImportError as exc:
                raise OcrUnavailableError(f"the OCR engine is not installed ({exc.name or 'tesserocr'})") from exc
            if settings.cjk_reader and cjk_reader_available(settings):
                from docshelf.ocr.ppocr import PpOcrEngine

                engine = ScriptRoutedEngine(engine, PpOcrEngine(settings.tessdata / PPOCR_FOLDER))
            _shared[key] = engine
        return engine
