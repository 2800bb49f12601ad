"""Open Packaging Conventions, the zip packages of Office Open XML (DOCX, XLSX, XLSB, PPTX, VSDX): where a part's
relationships are kept, and what they name."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from docshelf.parsers.xml_safety import local, parse_xml

RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


@dataclass(frozen=True, slots=True)
class Relationship:
    rid: str
    kind: str  # the last segment of its type: `worksheet`, `drawing`, `chart`
    target: str  # the part it names, resolved against its source part


def relationships_part(part: str) -> str:
    """Where `part`'s relationships are kept: `xl/workbook.bin` -> `xl/_rels/workbook.bin.rels`."""
    return posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")


def relationships(rels: bytes, part: str, *, what: str) -> list[Relationship]:
    """The internal relationships a `.rels` part holds for `part`, their targets resolved to part names."""
    found: list[Relationship] = []
    for rel in parse_xml(rels, what=what).getroot():
        target = str(rel.get("Target", ""))
        if local(rel.tag) != "Relationship" or not target or rel.get("TargetMode") == "External":
            continue
        resolved = target.lstrip("/") if target.startswith("/") else posixpath.join(posixpath.dirname(part), target)
        kind = str(rel.get("Type", "")).rsplit("/", 1)[-1]
        found.append(Relationship(str(rel.get("Id", "")), kind, posixpath.normpath(resolved)))
    return found
