"""PPTX parser: one page per slide, shapes in reading order, tables with spans, pictures and speaker notes."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from typing import Any

from lxml import etree
from pptx import Presentation
from pptx.exc import PythonPptxError
from pptx.oxml.ns import qn

from docshelf.assets.collect import AssetCollector
from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office.pptx_shapes import SHAPE_ERRORS, ShapeReader, clean_text, furniture_text
from docshelf.parsers.safe_zip import check_package

NOTES_PREFIX = "Speaker notes: "
# python-pptx reports a damaged package part with whatever its XML accessors raise.
_OPEN_ERRORS = (
    PythonPptxError,
    AttributeError,
    TypeError,
    KeyError,
    ValueError,
    etree.XMLSyntaxError,
    zipfile.BadZipFile,
    zlib.error,
    OSError,
)


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    what = f"PPTX file {filename!r}"
    check_package(data, limits, what=what)
    try:
        try:
            presentation = Presentation(io.BytesIO(data))
        except ValueError as exc:  # a slide show (.ppsx) or template (.potx): python-pptx opens presentations only
            if "not a PowerPoint file" not in str(exc):
                raise
            presentation = Presentation(io.BytesIO(as_presentation(data)))
        slides = list(presentation.slides)
    except _OPEN_ERRORS as exc:
        raise CorruptDocumentError(f"{what} could not be read: {type(exc).__name__}: {exc}") from exc
    blocks: list[Block] = []
    warnings: list[str] = []
    collector = AssetCollector()
    repeated = _repeated_furniture(slides)
    for number, slide in enumerate(slides, start=1):
        try:
            reader = ShapeReader(number, _bulleted_levels(slide), collector, repeated, limits)
            blocks.extend(reader.read(slide.shapes))
            blocks.extend(_notes(slide, number))
            warnings.extend(reader.warnings)
        except SHAPE_ERRORS as exc:
            warnings.append(f"slide {number} could not be read completely ({type(exc).__name__}: {exc})")
    page_count = max(1, len(slides))
    return ParsedContent(
        blocks=blocks,
        page_count=page_count,
        title=_title(presentation, blocks),
        page_labels={number: f"Slide {number}" for number in range(1, len(slides) + 1)},
        warnings=warnings,
        assets=collector.assets,
    )


# The main part's content type of a slide show or template, macro-enabled or not: read as a presentation's.
_SHOW_OR_TEMPLATE = re.compile(
    rb"application/vnd\.(?:openxmlformats-officedocument\.presentationml|ms-powerpoint)\.(?:slideshow|template)"
    rb"(?:\.macroEnabled)?\.main\+xml"
)
_PRESENTATION_MAIN = b"application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"


def as_presentation(data: bytes) -> bytes:
    """The package with its main part typed as a presentation's (its other members as they are)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            content = source.read(member)
            if member.filename == "[Content_Types].xml":
                content = _SHOW_OR_TEMPLATE.sub(_PRESENTATION_MAIN, content)
            target.writestr(member, content)
    return buffer.getvalue()


def _repeated_furniture(slides: list[Any]) -> frozenset[str]:
    """The footer and date texts shown on more than one slide (the Header & Footer dialog's)."""
    seen: set[str] = set()
    repeated: set[str] = set()
    for slide in slides:
        try:
            texts = {furniture_text(shape) for shape in slide.shapes}
        except SHAPE_ERRORS:
            continue
        for text in texts:
            if text:
                (repeated if text in seen else seen).add(text)
    return frozenset(repeated)


def _bulleted_levels(slide: Any) -> frozenset[int]:
    """0-based levels whose master body style draws a bullet (body placeholders inherit it)."""
    try:
        master = slide.slide_layout.slide_master.element
    except SHAPE_ERRORS:
        return frozenset({0, 1, 2, 3, 4, 5, 6, 7, 8})
    body_style = master.find(f"{qn('p:txStyles')}/{qn('p:bodyStyle')}")
    if body_style is None:
        return frozenset()
    levels = set()
    for level in range(9):
        props = body_style.find(qn(f"a:lvl{level + 1}pPr"))
        if props is None or props.find(qn("a:buNone")) is not None:
            continue
        if any(props.find(qn(tag)) is not None for tag in ("a:buChar", "a:buAutoNum", "a:buBlip")):
            levels.add(level)
    return frozenset(levels)


def _notes(slide: Any, page: int) -> list[Block]:
    if not slide.has_notes_slide:
        return []
    frame = slide.notes_slide.notes_text_frame
    if frame is None:
        return []
    texts = [clean_text(paragraph.text) for paragraph in frame.paragraphs]
    texts = [text for text in texts if text]
    if not texts:
        return []
    texts[0] = NOTES_PREFIX + texts[0]
    return [Paragraph(text=text, page=page) for text in texts]


def _title(presentation: Any, blocks: list[Block]) -> str:
    """The first slide title; the core property only as a fallback (tools fill it with "PowerPoint Presentation")."""
    first_title = next((block.text for block in blocks if block.kind == "heading" and block.level == 1), "")
    if first_title:
        return first_title
    try:
        return " ".join((presentation.core_properties.title or "").split())
    except SHAPE_ERRORS:
        return ""
