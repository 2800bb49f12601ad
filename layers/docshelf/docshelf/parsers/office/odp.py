"""OpenDocument presentations (.odp, LibreOffice Impress and others): one page per slide, read as PPTX slides are:
its title and subtitle headings, then its shapes in the slide's order (text boxes' paragraphs and lists, tables,
pictures, shapes in groups), then its speaker notes. A slide's text is read by the ODT walker. OpenDocument drawings
(.odg, LibreOffice Draw) are read alike, a page each, their shapes top to bottom and left to right (a drawing's
order is the order its shapes were drawn in)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from docshelf.assets.collect import ImageSource, data_uri_bytes
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.detect import flat_mimetype
from docshelf.parsers.office.odf_objects import inline_objects
from docshelf.parsers.office.odt import OdtWalker, inline_content
from docshelf.parsers.office.odt_looks import length_points
from docshelf.parsers.office.odt_numbering import Numbering
from docshelf.parsers.office.opendocument import OFFICE, OpenDocument, read_flat, read_package
from docshelf.parsers.office.pptx import NOTES_PREFIX
from docshelf.parsers.package_images import member_images
from docshelf.parsers.safe_zip import open_zip
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
_HEADING_CLASSES = {"title": 1, "subtitle": 2}
_FURNITURE_CLASSES = frozenset({"header", "footer", "date-time", "page-number"})
_SHAPES = frozenset({"frame", "custom-shape", "rect", "ellipse", "polygon", "path", "line", "connector", "caption"})
MAX_GROUP_DEPTH = 32


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    if flat_mimetype(data):  # a .fodp: its pictures are inline data
        return _parsed(read_flat(data, what="ODP"), ImageSource(data_uri_bytes))
    with open_zip(data, limits, what="ODP") as archive:
        package = read_package(archive, limits, what="ODP")
        inline_objects(package.content, archive, limits, what="ODP")
        return _parsed(package, ImageSource(member_images(archive, limits, what="ODP")))


def _parsed(package: OpenDocument, images: ImageSource) -> ParsedContent:
    numbering = Numbering.read(*package.roots)
    drawing = next(package.content.iter(f"{{{OFFICE}}}drawing"), None)
    body = drawing if drawing is not None else package.body("presentation", "ODP")
    slides = [node for node in body if local(node.tag) == "page"]
    blocks: list[Block] = []
    for number, slide in enumerate(slides, start=1):
        read = _slide(slide, OdtWalker({}, images, numbering), placed=drawing is not None)
        blocks.extend(replace(block, page=number) for block in read)
    first_title = next((b.text for b in blocks if isinstance(b, Heading) and b.level == 1), "")
    label = "Page" if drawing is not None else "Slide"
    return ParsedContent(
        blocks=blocks,
        page_count=max(1, len(slides)),
        title=first_title or package.title,
        page_labels={number: f"{label} {number}" for number in range(1, len(slides) + 1)},
        assets=images.collector.assets,
    )


def _slide(slide: etree._Element, walker: OdtWalker, *, placed: bool = False) -> list[Block]:
    """A slide's blocks, or a drawing's page's (`placed`: its shapes read where they stand, not in drawing order)."""
    shapes = list(_shapes(slide, 0))
    if placed:
        shapes.sort(key=_position)
    for shape in shapes:
        kind = str(shape.get(f"{{{PRESENTATION}}}class") or "")
        if kind in _FURNITURE_CLASSES:
            continue
        if kind in _HEADING_CLASSES:
            text = " ".join(" ".join(_paragraph_texts(shape)).split())
            if text:
                walker.blocks.append(Heading(text=text, level=_HEADING_CLASSES[kind], page=1))
        elif any(local(child.tag) in ("image", "object") for child in shape) and not any(
            local(child.tag) in ("table", "text-box") for child in shape
        ):  # a picture (a table's frame holds a picture of it too, for readers without tables)
            walker.images(shape)
        else:
            walker.walk(shape)
    return [*walker.blocks, *_notes(slide)]


def _shapes(parent: etree._Element, depth: int) -> Iterator[etree._Element]:
    """The slide's shapes in its order, those of groups in their place."""
    for child in parent:
        name = local(child.tag)
        if name in _SHAPES:
            yield child
        elif name == "g" and depth < MAX_GROUP_DEPTH:
            yield from _shapes(child, depth + 1)


def _position(shape: etree._Element) -> tuple[float, float]:
    """Where a shape's top left corner stands (points down, then across); a shape without one first."""
    y, x = length_points(shape.get(f"{{{SVG}}}y")), length_points(shape.get(f"{{{SVG}}}x"))
    return (y or 0.0, x or 0.0)


def _notes(slide: etree._Element) -> list[Block]:
    notes = next((child for child in slide if local(child.tag) == "notes"), None)
    if notes is None:
        return []
    frames = [shape for shape in _shapes(notes, 0) if shape.get(f"{{{PRESENTATION}}}class") == "notes"]
    texts = [text for frame in frames for text in _paragraph_texts(frame) if text]
    if not texts:
        return []
    texts[0] = NOTES_PREFIX + texts[0]
    return [Paragraph(text=text, page=1) for text in texts]


def _paragraph_texts(shape: etree._Element) -> list[str]:
    return [inline_content(node)[0] for node in shape.iter() if local(node.tag) in ("p", "h")]
