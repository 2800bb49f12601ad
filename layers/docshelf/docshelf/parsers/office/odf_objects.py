"""Embedded objects of OpenDocument files (a frame's `draw:object`: a formula, a chart), read into the content where
they stand: a packaged file keeps each in its own folder (`Object 1/content.xml`), a flat file writes it inline, and
the readers (odt_formulas.py, odf_charts.py) then read the inline form of both."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from docshelf.errors import DocumentError
from docshelf.parsers.safe_zip import read_member
from docshelf.parsers.xml_safety import local, parse_xml

if TYPE_CHECKING:
    import zipfile

    from lxml import etree

    from docshelf.parsers.base import ParseLimits

XLINK = "http://www.w3.org/1999/xlink"
MAX_OBJECTS = 5_000  # objects read; a file of more keeps the rest as frames (left out of the text)
_INLINE_ROOTS = frozenset({"math", "document", "document-content"})


def inline_objects(root: etree._Element, archive: zipfile.ZipFile, limits: ParseLimits, *, what: str) -> None:
    """Each embedded object's content root appended inside its `draw:object` (a damaged or missing one left out)."""
    names = set(archive.namelist())
    read = 0
    for embedded in [node for node in root.iter() if isinstance(node.tag, str) and local(node.tag) == "object"]:
        if read >= MAX_OBJECTS:
            return
        if any(isinstance(child.tag, str) and local(child.tag) in _INLINE_ROOTS for child in embedded):
            continue
        folder = posixpath.normpath(str(embedded.get(f"{{{XLINK}}}href", "")).removeprefix("./").strip("/"))
        member = f"{folder}/content.xml"
        if folder.startswith("..") or member not in names:
            continue
        read += 1
        try:
            embedded.append(
                parse_xml(read_member(archive, member, limits, what=what), what=f"{what} {member}").getroot()
            )
        except DocumentError:
            continue
