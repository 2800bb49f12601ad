"""Documents embedded in Office documents as OLE objects: a worksheet pasted into a Word report or a slide, a
Word document in a deck, an Equation Editor equation. Which objects are read as documents, and how."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.errors import DocumentError
from docshelf.model import Block, Heading, Image
from docshelf.parsers.nesting import inside_container, reading_members

if TYPE_CHECKING:
    from docshelf.parsers.base import ParseLimits

# The objects read as the documents they are (their ProgID's start).
EMBEDDED_DOCUMENTS = ("Excel.Sheet", "Excel.Chart", "Word.Document", "PowerPoint.Show", "PowerPoint.Slide")
EQUATION_OBJECTS = "Equation."


def embedded_blocks(data: bytes | None, limits: ParseLimits) -> list[Block]:
    """The text and tables of a document embedded as an object, read as the document it is; its headings (a sheet's
    name) and pictures are left out, as it belongs where it sits. Nothing when it cannot be read, or when the document
    holding it is itself a container's member (containers are read one level deep)."""
    from docshelf.parsers import read_attached  # the registry, which imports the parsers that call this

    if not data or inside_container():
        return []
    with reading_members():
        read = read_attached(data, "embedded object", limits)
    if isinstance(read, DocumentError):
        return []
    return [block for block in read[0].blocks() if not isinstance(block, Heading | Image)]
