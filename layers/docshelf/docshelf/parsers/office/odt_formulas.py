"""Formulas in OpenDocument text: each a frame holding an embedded object (`Object 1/content.xml`, a MathML
document) or, in a flat file, the MathML itself, read as LaTeX where the frame stands (markup/mathml). A formula
object is a character of its line, so `$…$`, though LibreOffice marks every formula's MathML a block."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from lxml import etree

from docshelf.errors import DocumentError
from docshelf.parsers.markup.mathml import mathml_latex
from docshelf.parsers.safe_zip import read_member
from docshelf.parsers.xml_safety import local, parse_xml

if TYPE_CHECKING:
    import zipfile

    from docshelf.parsers.base import ParseLimits

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
XLINK = "http://www.w3.org/1999/xlink"
MAX_FORMULAS = 5_000  # objects read; a file of more keeps the rest as frames (left out of the text, as before)


def inline_formulas(root: etree._Element, archive: zipfile.ZipFile, limits: ParseLimits) -> None:
    """Replaces each formula's frame in `root` with a span of its LaTeX (the frame's tail kept)."""
    names = set(archive.namelist())
    frames = [node for node in root.iter() if isinstance(node.tag, str) and local(node.tag) == "frame"]
    read = 0
    for frame in frames:
        embedded = next((child for child in frame if local(child.tag) == "object"), None)
        if embedded is None or read >= MAX_FORMULAS:
            continue
        math = next((node for node in embedded.iter() if isinstance(node.tag, str) and local(node.tag) == "math"), None)
        if math is None:
            read += 1
            math = _object_math(str(embedded.get(f"{{{XLINK}}}href", "")), archive, names, limits)
        latex = mathml_latex(math, display=False) if math is not None else ""
        parent = frame.getparent()
        if latex and parent is not None:
            span = etree.Element(f"{{{TEXT}}}span")
            span.text, span.tail = latex, frame.tail
            parent.replace(frame, span)


def _object_math(href: str, archive: zipfile.ZipFile, names: set[str], limits: ParseLimits) -> etree._Element | None:
    folder = posixpath.normpath(href.removeprefix("./").strip("/"))
    member = f"{folder}/content.xml"
    if folder.startswith("..") or member not in names:
        return None
    try:
        root = parse_xml(read_member(archive, member, limits, what="ODT"), what=f"ODT {member}").getroot()
    except DocumentError:
        return None
    return root if local(root.tag) == "math" else None
