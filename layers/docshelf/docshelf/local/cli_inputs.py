"""The CLI's inputs checked whole before a command does anything: each problem is a DocshelfError with a
one-line message (the command exits 2), never a traceback or half an output."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docshelf.errors import DocshelfError, DocumentError
from docshelf.local.sources import shown
from docshelf.pipeline.file_reading import read_source
from docshelf.registry import DocumentRecord
from docshelf.search.document_names import document_ids


def read_input_file(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of a file named on the command line (refused over `max_bytes` before it is read)."""
    if path.is_dir():
        raise DocshelfError(f"{shown(path)} is a folder: give one file (docshelf ingest takes folders)")
    if not path.exists():
        raise DocshelfError(f"no such file: {shown(path)}")
    try:
        return read_source(path, max_bytes)
    except DocumentError as error:
        raise DocshelfError(f"{shown(path)}: {error.message}") from None


def read_queries(path: Path) -> list[tuple[Any, str]]:
    """(qid, query) of every line of a JSONL queries file; blank lines are skipped. The whole file is checked
    before any query runs, so a bad line prints nothing but the error."""
    data = read_input_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DocshelfError(f"{shown(path)}: not UTF-8 text (byte {error.start})") from None
    queries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            queries.append(_query_line(line, f"{shown(path)}:{number}"))
    return queries


def _query_line(line: str, where: str) -> tuple[Any, str]:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as error:
        raise DocshelfError(f"{where}: not JSON ({error.msg})") from None
    if not isinstance(item, dict):
        raise DocshelfError(f'{where}: expected an object {{"qid": ..., "query": "..."}}')
    qid, query = item.get("qid"), item.get("query")
    if not isinstance(qid, str | int) or isinstance(qid, bool):
        raise DocshelfError(f'{where}: "qid" must be a string or an integer')
    if not isinstance(query, str) or not query.strip():
        raise DocshelfError(f'{where}: "query" must be a non-empty string')
    return qid, query


def resolve_delete_keys(keys: Sequence[str], live: Sequence[DocumentRecord]) -> list[str]:
    """The source key each argument names (search/document_names.py: an id, a source key, or a file name exactly one
    live document has)."""
    by_id = {record.document_id: record.source_key for record in live}
    return [by_id[document_id] for document_id in document_ids(keys, live)]
