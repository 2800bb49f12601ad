"""The parse and failure caches hold what the bytes decide, never whose bytes they were.

Both caches are keyed by content, so the same bytes uploaded under another name, in another namespace, are
answered from the first upload's entry. A parse names its file in places (the source's uri and file name, a title
taken from the file name, `'<key>'` in a message or warning): those are written to the cache as marks, and a
document or failure read back from it gets the names of the document asking, from its own reference. So neither
a citation, a status nor an error message ever names another document's file.
"""

from __future__ import annotations

from dataclasses import replace

from docshelf.model import Document

# Where a source key and a file name stood; neither character sequence can be in a file name or an S3 key that the
# API or the file system accepts (NUL), so a mark is never confused with text.
_KEY_MARK = "\x00key\x00"
_NAME_MARK = "\x00name\x00"


def _file_name(source_key: str) -> str:
    return source_key.rsplit("/", 1)[-1]


def anonymous_text(text: str, source_key: str) -> str:
    """`text` with the key and the file name, quoted as messages quote them (`repr`), replaced by marks."""
    text = text.replace(repr(source_key), _KEY_MARK)
    name = _file_name(source_key)
    return text.replace(repr(name), _NAME_MARK) if name != source_key else text


def named_text(text: str, source_key: str) -> str:
    """A cached text with the marks replaced by this document's key and file name, quoted."""
    return text.replace(_KEY_MARK, repr(source_key)).replace(_NAME_MARK, repr(_file_name(source_key)))


def anonymous_document(document: Document, source_key: str) -> Document:
    """The document as the parse cache keeps it: no uri, file name or fetch time, a title taken from the file name
    as a mark, and messages in its warnings and truncation with marks for the names."""
    name = _file_name(source_key)
    title = _NAME_MARK if document.title in (name, source_key) else document.title
    return replace(
        document,
        source=replace(document.source, uri="", filename="", fetched_at=""),
        title=title,
        warnings=tuple(anonymous_text(warning, source_key) for warning in document.warnings),
        truncation=anonymous_text(document.truncation, source_key),
    )


def named_document(document: Document, source_key: str, *, uri: str = "", fetched_at: str = "") -> Document:
    """A cached document as the document of `source_key`: its file name, its uri (default the key), its fetch
    time (a web page's), and its names where the cache has marks."""
    name = _file_name(source_key)
    return replace(
        document,
        source=replace(document.source, uri=uri or source_key, filename=name, fetched_at=fetched_at),
        title=name if document.title == _NAME_MARK else named_text(document.title, source_key),
        warnings=tuple(named_text(warning, source_key) for warning in document.warnings),
        truncation=named_text(document.truncation, source_key),
    )
