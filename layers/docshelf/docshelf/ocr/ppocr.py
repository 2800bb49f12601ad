"""PP-OCRv6 (PaddleOCR's text detector and line recogniser, ONNX, run by onnxruntime) for Chinese and Japanese pages.

On bench/ocr_bench.py's pages it reads Chinese and Japanese several times better than Tesseract's best models
(docs/evaluation/ocr.md), titles included, and one model reads simplified and traditional Han, kana and Latin. The
models come from the rapidocr wheel on PyPI (infra/fetch_ocr_data.py, sha256-pinned); rapidocr itself is not used:
it needs OpenCV (173 MB), which would put the parse function over Lambda's 250 MB, and what it does with OpenCV here
is a resize, a crop and a connected-regions pass (ocr/line_detection.py).

Both sessions run on one thread: pages are read in parallel by forked workers (parsers/pdf_workers), which share
the sessions loaded before the fork, and a session with a thread pool must not be forked.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from docshelf.ocr.ctc import greedy_decode, words
from docshelf.ocr.line_detection import LineBox, text_line_boxes
from docshelf.ocr.model import Box, OcrLine, OcrPage, OcrParagraph, OcrWord, union
from docshelf.ocr.reading_order import paragraphs

if TYPE_CHECKING:
    from PIL.Image import Image

DETECTOR = "det.onnx"
RECOGNISER = "rec.onnx"
# The detector reads the page at most this many pixels on its longer side (a 300 dpi A4 page is 3,508): on
# bench/ocr_bench.py 1,280 read as well as 2,000 at 25% less CPU and two thirds of the memory; 960 lost at 10 pt.
DETECTION_SIDE = 1280
LINE_HEIGHT = 48  # the recogniser's input height
MIN_LINE_WIDTH = 320  # the recogniser's narrowest input (its training width)
BATCH = 6
# Grey levels below this are ink; rows of ink at most INK_GAP apart are one line's (a line's strokes leave gaps).
INK_LEVEL = 128
INK_GAP = 3
# A line read with less confidence than this is noise (a speck, a ruling line).
MIN_LINE_CONFIDENCE = 0.5


class PpOcrEngine:
    name = "pp-ocrv6"

    def __init__(self, folder: Path) -> None:
        import onnxruntime  # imported here so that a missing runtime is a status, not an import error

        self._onnxruntime = onnxruntime
        self._folder = folder
        self._sessions: tuple[Any, Any, tuple[str, ...]] | None = None
        self._lock = threading.Lock()

    def load(self, languages: tuple[str, ...] = ()) -> None:
        self._loaded()

    def recognise(self, image: Image, languages: tuple[str, ...] = (), *, dpi: int | None = None) -> OcrPage:
        detector, recogniser, charset = self._loaded()
        rgb = image.convert("RGB")
        lines = _detect(detector, rgb)
        read = _recognise(recogniser, charset, rgb, lines)
        kept = [(line.box, line) for line in read if line]
        order = paragraphs([box for box, _ in kept], rgb.width)
        return OcrPage(
            width=rgb.width,
            height=rgb.height,
            paragraphs=tuple(
                OcrParagraph(tuple(_line([kept[index] for index in line]) for line in paragraph)) for paragraph in order
            ),
        )

    def _loaded(self) -> tuple[Any, Any, tuple[str, ...]]:
        with self._lock:
            if self._sessions is None:
                options = self._onnxruntime.SessionOptions()
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                # Without the arena, memory goes back after each page: with it, a worker held ~1.4 GB after a few
                # pages of different line widths (bench/ocr_bench.py).
                options.enable_cpu_mem_arena = False
                detector = self._session(DETECTOR, options)
                recogniser = self._session(RECOGNISER, options)
                characters = recogniser.get_modelmeta().custom_metadata_map["character"].splitlines()
                self._sessions = (detector, recogniser, ("", *characters, " "))
            return self._sessions

    def _session(self, name: str, options: Any) -> Any:
        return self._onnxruntime.InferenceSession(
            str(self._folder / name), sess_options=options, providers=["CPUExecutionProvider"]
        )


def _normalised(pixels: np.ndarray) -> np.ndarray:
    """HWC RGB bytes as the models were trained on them: BGR, scaled to [-1, 1], CHW."""
    return ((pixels[:, :, ::-1].astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)


def _detect(detector: Any, image: Image) -> list[LineBox]:
    scale = min(1.0, DETECTION_SIDE / max(image.width, image.height))
    width = max(32, round(image.width * scale / 32) * 32)
    height = max(32, round(image.height * scale / 32) * 32)
    pixels = np.asarray(image.resize((width, height)), dtype=np.uint8)
    probability = detector.run(None, {detector.get_inputs()[0].name: _normalised(pixels)[None]})[0][0, 0]
    x_scale, y_scale = image.width / width, image.height / height
    return [line.scaled(x_scale, y_scale) for line in text_line_boxes(probability)]


def _crop(image: Image, line: LineBox) -> Image:
    """The line's rectangle turned level, as its own image."""
    from PIL import Image as PILImage

    cos, sin = math.cos(line.angle), math.sin(line.angle)
    width, height = max(1, round(line.width)), max(1, round(line.height))
    half_w, half_h = width / 2, height / 2
    origin_x = line.centre_x - half_w * cos + half_h * sin
    origin_y = line.centre_y - half_w * sin - half_h * cos
    return image.transform(
        (width, height),
        PILImage.Transform.AFFINE,
        (cos, -sin, origin_x, sin, cos, origin_y),
        resample=PILImage.Resampling.BILINEAR,
        fillcolor=(255, 255, 255),
    )


def _recognise(recogniser: Any, charset: tuple[str, ...], image: Image, lines: list[LineBox]) -> list[OcrLine | None]:
    """Each detected line's words (None when nothing was read with confidence), batched by width as PP-OCR batches
    them."""
    result: list[OcrLine | None] = [None] * len(lines)
    order = sorted(range(len(lines)), key=lambda i: lines[i].width / max(1.0, lines[i].height))
    name = recogniser.get_inputs()[0].name
    for start in range(0, len(order), BATCH):
        batch = order[start : start + BATCH]
        crops = [_crop(image, lines[index]) for index in batch]
        widths = [max(1, math.ceil(LINE_HEIGHT * crop.width / max(1, crop.height))) for crop in crops]
        padded = max(MIN_LINE_WIDTH, *widths)
        tensor = np.zeros((len(batch), 3, LINE_HEIGHT, padded), dtype=np.float32)
        for row, (crop, width) in enumerate(zip(crops, widths, strict=True)):
            tensor[row, :, :, :width] = _normalised(np.asarray(crop.resize((width, LINE_HEIGHT)), dtype=np.uint8))
        probabilities = recogniser.run(None, {name: tensor})[0]
        step_width = padded / probabilities.shape[1]  # input pixels a step
        decoded = greedy_decode(probabilities, charset)
        for index, crop, width, read in zip(batch, crops, widths, decoded, strict=True):
            if not read.characters or read.confidence < MIN_LINE_CONFIDENCE:
                continue
            box = _text_box(lines[index], crop)
            to_page = step_width * (box[2] - box[0]) / width
            placed = tuple(
                OcrWord(
                    word.text,
                    (
                        max(box[0], box[0] + round(word.left * to_page)),
                        box[1],
                        min(box[2], box[0] + round(word.right * to_page)),
                        box[3],
                    ),
                    word.confidence,
                )
                for word in words(read)
            )
            if placed:
                result[index] = OcrLine(placed, box)
    return result


def _text_box(line: LineBox, crop: Image) -> Box:
    """The line's box with the height of its ink: the rows of the crop around its middle that hold dark pixels.
    The detector's rectangles are grown by an amount that depends on a line's length, so their heights do not keep
    the text's proportions, which headings are found by."""
    left, top, right, _ = line.box
    ink = np.asarray(crop.convert("L")) < INK_LEVEL
    rows = ink.sum(axis=1) > max(1, crop.width // 200)
    middle = len(rows) // 2
    if not rows.any():
        return line.box
    marked = np.flatnonzero(rows)
    centre = int(marked[np.argmin(np.abs(marked - middle))])
    first = last = centre
    while first > 0 and rows[max(0, first - INK_GAP) : first].any():
        first -= 1
    while last < len(rows) - 1 and rows[last + 1 : min(len(rows), last + 1 + INK_GAP)].any():
        last += 1
    return (left, top + first, right, top + last + 1)


def _line(parts: list[tuple[Box, OcrLine]]) -> OcrLine:
    """Boxes the reading order put on one row, as one line."""
    if len(parts) == 1:
        return parts[0][1]
    return OcrLine(tuple(word for _, line in parts for word in line.words), union([box for box, _ in parts]))
