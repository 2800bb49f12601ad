"""JSON round trip of the model; every top-level object carries `schema_version`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import orjson

from docshelf.model import (
    Block,
    Chunk,
    Document,
    Heading,
    Image,
    Link,
    Page,
    Paragraph,
    Source,
    Table,
    TableCell,
)
from docshelf.versions import SCHEMA_VERSION

JsonObject = dict[str, Any]


class SchemaVersionError(ValueError):
    pass


def _check_version(data: JsonObject) -> None:
    major = str(data.get("schema_version", "")).split(".")[0]
    if major != SCHEMA_VERSION.split(".")[0]:
        raise SchemaVersionError(f"unsupported schema_version {data.get('schema_version')!r}")


def document_to_dict(document: Document) -> JsonObject:
    """The document as JSON; `truncation` only when a limit cut it, so a whole document's JSON has no such key."""
    data = asdict(document)
    if not document.source.fetched_at:
        del data["source"]["fetched_at"]
    if not document.truncation:
        del data["truncation"]
    return data


def source_dict(source: Source) -> JsonObject:
    data: JsonObject = {
        "uri": source.uri, "filename": source.filename, "media_type": source.media_type,
        "size_bytes": source.size_bytes, "sha256": source.sha256,
    }  # fmt: skip
    if source.fetched_at:
        data["fetched_at"] = source.fetched_at
    return data


def document_json(document: Document) -> bytes:
    """`dumps(document_to_dict(document))`, written by orjson from the dataclasses themselves: `asdict` made a dict
    for every block and cell first, as large as the document again (hundreds of MB for a 200 MB text)."""
    data: JsonObject = {
        "source": source_dict(document.source), "title": document.title, "pages": document.pages,
        "parser": document.parser, "warnings": document.warnings, "schema_version": document.schema_version,
    }  # fmt: skip
    if document.truncation:
        data["truncation"] = document.truncation
    return dumps(data)


def block_from_dict(data: JsonObject) -> Block:
    kind = data["kind"]
    if kind == "heading":
        return Heading(**data)
    if kind == "paragraph":
        return Paragraph(**data)
    if kind == "image":
        return Image(**data)
    if kind == "table":
        cells = tuple(TableCell(**cell) for cell in data["cells"])
        return Table(**{**data, "cells": cells})
    raise ValueError(f"unknown block kind {kind!r}")


def document_from_dict(data: JsonObject) -> Document:
    _check_version(data)
    pages = tuple(
        Page(number=page["number"], label=page["label"], blocks=tuple(block_from_dict(b) for b in page["blocks"]))
        for page in data["pages"]
    )
    return Document(
        source=Source(**data["source"]),
        title=data["title"],
        pages=pages,
        parser=data["parser"],
        warnings=tuple(data["warnings"]),
        schema_version=data["schema_version"],
        truncation=data.get("truncation", ""),
    )


def chunk_to_dict(chunk: Chunk) -> JsonObject:
    return asdict(chunk)


def chunk_from_dict(data: JsonObject) -> Chunk:
    """The chunk `chunk_to_dict` wrote. Fields named one by one: merging the dict into keyword arguments takes a
    third of the time of loading an embedded index from its snapshot (100k chunks)."""
    links = data.get("connect_to")
    return Chunk(
        chunk_id=data["chunk_id"],
        document_id=data["document_id"],
        namespace=data["namespace"],
        type=data["type"],
        text=data["text"],
        section_path=tuple(data["section_path"]),
        pages=tuple(data["pages"]),
        token_count=data["token_count"],
        ordinal=data["ordinal"],
        source_file_name=data["source_file_name"],
        source_key=data.get("source_key", ""),
        revision=data.get("revision", ""),
        connect_to=tuple(Link(**link) for link in links) if links else (),
        overlap_chars=data.get("overlap_chars", 0),
        citation_tokens=data.get("citation_tokens", 0),
    )


def chunks_json(chunks: list[Chunk], **extra: Any) -> bytes:
    """`{"schema_version", **extra, "chunks": [chunk_to_dict(c), ...]}` as `dumps` writes it, written by orjson from
    the chunk dataclasses themselves."""
    return dumps({"schema_version": SCHEMA_VERSION, **extra, "chunks": chunks})


def chunks_from_dict(data: JsonObject) -> list[Chunk]:
    _check_version(data)
    return [chunk_from_dict(c) for c in data["chunks"]]


def dumps(data: JsonObject) -> bytes:
    """Compact UTF-8 JSON, as `json.dumps(data, ensure_ascii=False, separators=(",", ":"))` writes it but for
    shorter exponents (1e-7, not 1e-07)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def loads(data: bytes) -> JsonObject:
    value = orjson.loads(data)
    if not isinstance(value, dict):
        raise ValueError("expected a JSON object")
    return value
