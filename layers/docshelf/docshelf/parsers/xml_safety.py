"""Safe XML parsing: no entity expansion, no network, no huge trees."""

from __future__ import annotations

from lxml import etree

from docshelf.errors import (
    CorruptDocumentError,
    UnsupportedFormatError,
)

MAX_ENTITY_TEXT = 10_000


def safe_xml_parser(*, recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        recover=recover,
    )


def parse_xml(data: bytes, *, what: str = "XML") -> etree._ElementTree:
    """Parse bytes into a tree; refuse documents declaring entities that expand (billion laughs)."""
    try:
        root = etree.fromstring(data, parser=safe_xml_parser())
    except etree.XMLSyntaxError as exc:
        raise CorruptDocumentError(f"malformed {what}: {exc}") from exc
    if root is None:
        raise CorruptDocumentError(f"malformed {what}: no root element")
    tree = root.getroottree()
    dtd: etree.DTD | None = tree.docinfo.internalDTD
    if dtd is not None:
        for entity in dtd.iterentities():  # type: ignore[attr-defined]
            content = entity.content or ""
            if "&" in content or "%" in content or len(content) > MAX_ENTITY_TEXT:
                raise UnsupportedFormatError(
                    f"{what} declares entity {entity.name!r} expanding other entities (entity-expansion attack)"
                )
    return tree


def local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
