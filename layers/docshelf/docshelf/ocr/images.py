"""Text read from a document's embedded images (a screenshot of a dialog, a scanned table pasted into a report),
for their image chunks. Only pictures large enough to hold text are read, at most MAX_IMAGES a document, and a
paragraph the engine is unsure of (a logo's shapes read as letters) is left out."""

from __future__ import annotations

import io
from collections.abc import Mapping

from docshelf.ocr.engine import shared_engine
from docshelf.ocr.settings import OcrSettings, unavailable_reason
from docshelf.tables import block_text

MIN_SIDE_PX = 64
MAX_IMAGES = 20
MIN_CONFIDENCE = 0.6


def image_texts(assets: Mapping[str, bytes], settings: OcrSettings) -> dict[str, str]:
    """The text read from each asset that holds some (by asset name); nothing when OCR cannot run here."""
    if not assets or unavailable_reason(settings) is not None:
        return {}
    from PIL import Image, UnidentifiedImageError

    from docshelf.ocr.blocks import preload, recognise_page

    engine = shared_engine(settings)
    preload(engine, settings)
    texts: dict[str, str] = {}
    for name, data in list(assets.items())[:MAX_IMAGES]:
        try:
            with Image.open(io.BytesIO(data)) as opened:
                if min(opened.size) < MIN_SIDE_PX:
                    continue
                image = opened.convert("L")
            blocks, _ = recognise_page(engine, image, settings, 1, dpi=None)
        except (UnidentifiedImageError, OSError, RuntimeError, ValueError):
            continue
        confident = [block_text(block) for block in blocks if (block.confidence or 0.0) >= MIN_CONFIDENCE]
        if text := "\n".join(part for part in confident if part.strip()):
            texts[name] = text
    return texts
