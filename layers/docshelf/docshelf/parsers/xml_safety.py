"""Safe XML parsing (no entity expansion, no network, no huge trees) and zip-bomb-checked package reading."""

from __future__ import annotations

import io
import zipfile
import zlib

from lxml import etree

from docshelf.errors import (
    CorruptDocumentError,
    DocumentTooLargeError,
    EncryptedDocumentError,
    UnsupportedFormatError,
)
from docshelf.parsers.base import ParseLimits

MAX_ENTITY_TEXT = 10_000
_RATIO_CHECK_MIN_BYTES = 1024 * 1024


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


def open_package(data: bytes, limits: ParseLimits, *, what: str) -> zipfile.ZipFile:
    """Open a zip container after checking declared sizes against the limits (zip bombs)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise CorruptDocumentError(f"{what} is not a readable zip package: {exc}") from exc
    total = sum(info.file_size for info in infos)
    if total > limits.max_decompressed_bytes:
        raise DocumentTooLargeError(
            f"{what} unpacks to {total} bytes, over the limit of {limits.max_decompressed_bytes}"
        )
    for info in infos:
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > _RATIO_CHECK_MIN_BYTES and ratio > limits.max_compression_ratio:
            limit = limits.max_compression_ratio
            raise DocumentTooLargeError(
                f"{what} member {info.filename!r} has compression ratio {ratio:.0f} > {limit:g}"
            )
    return archive


def read_member(archive: zipfile.ZipFile, name: str, limits: ParseLimits, *, what: str) -> bytes:
    """A member's bytes, reading at most the limit even if the declared size lies."""
    try:
        with archive.open(name) as member:
            content = member.read(limits.max_decompressed_bytes + 1)
    except KeyError as exc:
        raise CorruptDocumentError(f"{what} has no {name!r}") from exc
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error, NotImplementedError) as exc:
        if "encrypted" in str(exc).lower() or "password" in str(exc).lower():
            raise EncryptedDocumentError(f"{what} member {name!r} is encrypted") from exc
        raise CorruptDocumentError(f"{what} member {name!r} is unreadable: {exc}") from exc
    if len(content) > limits.max_decompressed_bytes:
        raise DocumentTooLargeError(f"{what} member {name!r} unpacks beyond {limits.max_decompressed_bytes} bytes")
    return content
