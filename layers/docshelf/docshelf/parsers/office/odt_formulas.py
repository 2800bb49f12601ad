"""Formulas in OpenDocument text: each a frame holding an embedded object whose content is MathML (read inline by
odf_objects.py, or inline in a flat file), read as LaTeX where the frame stands (markup/mathml). A formula object is a
character of its line, so `$…$`, though LibreOffice marks every formula's MathML a block."""

from __future__ import annotations

from lxml import etree

from docshelf.parsers.markup.mathml import mathml_latex
from docshelf.parsers.xml_safety import local

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def inline_formulas(root: etree._Element) -> None:
    """Replaces each formula's frame in `root` with a span of its LaTeX (the frame's tail kept); its MathML is inline
    (odf_objects.inline_objects, or a flat file)."""
    frames = [node for node in root.iter() if isinstance(node.tag, str) and local(node.tag) == "frame"]
    for frame in frames:
        latex = frame_formula(frame, display=False)
        parent = frame.getparent()
        if latex and parent is not None:
            span = etree.Element(f"{{{TEXT}}}span")
            span.text, span.tail = latex, frame.tail
            parent.replace(frame, span)


def frame_formula(frame: etree._Element, *, display: bool) -> str:
    """The LaTeX of the formula a frame's embedded object holds ('' for none): `$$…$$` with `display`."""
    embedded = next((child for child in frame if local(child.tag) == "object"), None)
    if embedded is None:
        return ""
    math = next((node for node in embedded.iter() if isinstance(node.tag, str) and local(node.tag) == "math"), None)
    return mathml_latex(math, display=display) if math is not None else ""
