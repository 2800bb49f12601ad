"""Where `docshelf serve` finds a document's source file: the folder its documents were ingested from.

`docshelf ingest DIR` keys a file by its path relative to DIR, so `serve --sources DIR` finds each document at
DIR/<source key>. The file is served only while its bytes are the indexed revision: an edited file would not be
what the citation quotes.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from pathlib import Path

from docshelf.api.errors import NotFoundError
from docshelf.api.routes_source import SourceBytes, SourceChangedError, SourceOpener, SourceUrl
from docshelf.ids import sha256_hex
from docshelf.registry import DocumentRecord

# Types the platform's table may lack; text without a declared charset is read as Latin-1 by browsers.
MEDIA_TYPES = {
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".tsv": "text/tab-separated-values; charset=utf-8",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
}


def folder_source_opener(root: Path, *, per_namespace: bool = False) -> SourceOpener:
    """Files at root/<source key>, or root/<namespace>/<source key> with `per_namespace` (where `serve` keeps
    uploads: local/ingress.py)."""

    def open_source(record: DocumentRecord) -> SourceBytes:
        base = (root / record.namespace if per_namespace else root).resolve()
        path = base.joinpath(*record.source_key.split("/")).resolve()
        if not path.is_relative_to(base) or not path.is_file():
            raise NotFoundError(
                f"the source file of {record.source_file_name} is not kept by this server "
                "(uploaded through PUT /uploads, or in the folder of serve --sources DIR)"
            )
        data = path.read_bytes()
        if record.revision and sha256_hex(data) != record.revision:
            raise SourceChangedError(f"{record.source_file_name} has changed since it was indexed")
        return SourceBytes(data, media_type(path.name))

    return open_source


def namespace_source_opener(folders: Mapping[str, Path]) -> SourceOpener:
    """Each namespace's files in its own folder (`serve --sources NS=DIR`), a folder for `*` serving the rest."""
    openers = {namespace: folder_source_opener(folder) for namespace, folder in folders.items()}

    def open_source(record: DocumentRecord) -> SourceBytes | SourceUrl:
        opener = openers.get(record.namespace) or openers.get("*")
        if opener is None:
            raise NotFoundError(f"this server keeps no source folder for namespace {record.namespace}")
        return opener(record)

    return open_source


def media_type(filename: str) -> str:
    suffix = Path(filename).suffix.lower()
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(filename)[0] or "application/octet-stream"


def first_source_opener(*openers: SourceOpener) -> SourceOpener:
    """The first opener that finds the file (a changed file is an answer, not a miss)."""

    def open_source(record: DocumentRecord) -> SourceBytes | SourceUrl:
        missing: NotFoundError | None = None
        for opener in openers:
            try:
                return opener(record)
            except NotFoundError as error:
                missing = error
        raise missing or NotFoundError(f"the source file of {record.source_file_name} is not kept here")

    return open_source
