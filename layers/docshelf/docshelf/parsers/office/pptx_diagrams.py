"""SmartArt on a slide: the text of a diagram's nodes, read from its data part.

A SmartArt graphic frame holds no text itself: its `dgm:relIds` point at the data model (`r:dm`), whose text
nodes (`dgm:pt` of type node or assistant, each with a `dgm:t` body) hold what the audience reads, in the
part's order. The layout, style and colour parts (`r:lo`, `r:qs`, `r:cs`) hold none, and PowerPoint's cached
drawing of the diagram (a separate part of `dsp:` shapes) repeats the same text, so neither is read. The
nodes nest by the data model's parent-of connections; when those do not form a simple tree under the
document point, the nodes are read as one flat list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pptx.oxml.ns import qn

if TYPE_CHECKING:
    from lxml import etree

DIAGRAM_URI = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
DOC_RELS_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MAX_DEPTH = 9
_TEXT_POINTS = frozenset({"node", "asst"})


def _dgm(tag: str) -> str:
    return f"{{{DIAGRAM_URI}}}{tag}"


def diagram_data_rid(frame: etree._Element) -> str | None:
    """The relationship id of a SmartArt graphic frame's data part; None for any other graphic frame."""
    data = frame.find(f"{qn('a:graphic')}/{qn('a:graphicData')}")
    if data is None or data.get("uri") != DIAGRAM_URI:
        return None
    ids = data.find(_dgm("relIds"))
    return None if ids is None else ids.get(f"{{{DOC_RELS_NS}}}dm")


def diagram_paragraphs(data_model: etree._Element) -> list[tuple[int, str]]:
    """(list level, text) of every paragraph of the diagram's text nodes, in the data part's order."""
    points = data_model.findall(f"{_dgm('ptLst')}/{_dgm('pt')}")
    text_points = [point for point in points if (point.get("type") or "node") in _TEXT_POINTS]
    levels = _levels(data_model, points)
    paragraphs: list[tuple[int, str]] = []
    for point in text_points:
        level = levels.get(point.get("modelId") or "", 0)
        body = point.find(_dgm("t"))
        for paragraph in body.iter(qn("a:p")) if body is not None else ():
            paragraphs.append((level, _paragraph_text(paragraph)))
    return paragraphs


def _levels(data_model: etree._Element, points: list[etree._Element]) -> dict[str, int]:
    """Each text node's depth below the document point; empty when the connections are not a simple tree."""
    parent_of: dict[str, str] = {}
    for connection in data_model.iterfind(f"{_dgm('cxnLst')}/{_dgm('cxn')}"):
        if (connection.get("type") or "parOf") != "parOf":
            continue
        child, parent = connection.get("destId") or "", connection.get("srcId") or ""
        if child in parent_of:
            return {}
        parent_of[child] = parent
    kinds = {point.get("modelId") or "": point.get("type") or "node" for point in points}
    levels: dict[str, int] = {}
    for model_id, kind in kinds.items():
        if kind not in _TEXT_POINTS:
            continue
        depth, ancestor = 0, parent_of.get(model_id)
        while ancestor is not None and kinds.get(ancestor) != "doc" and depth < MAX_DEPTH:
            depth, ancestor = depth + 1, parent_of.get(ancestor)
        if ancestor is None or kinds.get(ancestor) != "doc":
            return {}
        levels[model_id] = depth
    return levels


def _paragraph_text(paragraph: etree._Element) -> str:
    parts: list[str] = []
    for child in paragraph:
        if child.tag == qn("a:br"):
            parts.append("\n")
        elif child.tag in (qn("a:r"), qn("a:fld")):
            parts.extend(text.text or "" for text in child.iter(qn("a:t")))
    return "".join(parts)
