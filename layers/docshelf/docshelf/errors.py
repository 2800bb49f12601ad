"""One family of errors. Per-document failures carry a short `code` kept as data in manifests."""

from __future__ import annotations

from typing import ClassVar


class DocshelfError(Exception):
    """Base of every error raised on purpose by docshelf."""


class DocumentError(DocshelfError):
    """Bad input for one document: never retried, recorded as the document's status."""

    code: ClassVar[str] = "corrupt"
    status: ClassVar[str] = "failed"

    def __init__(self, message: str, *, page: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.page = page


class CorruptDocumentError(DocumentError):
    code = "corrupt"


class EncryptedDocumentError(DocumentError):
    code = "encrypted"


class NeedsOcrError(DocumentError):
    code = "needs_ocr"
    status = "needs_ocr"


# How a document kept without the text of its image pages says so (OCR off or unavailable): a cached parse with it
# is parsed again once OCR can run.
OCR_SKIPPED_WARNING = "pages without a text layer (need OCR)"


class UnsupportedFormatError(DocumentError):
    code = "unsupported_format"


class DocumentTooLargeError(DocumentError):
    code = "too_large"


class ParseTimeoutError(DocumentError):
    code = "timeout"


class EmptyDocumentError(DocumentError):
    code = "empty"


class UnreadableSourceError(DocumentError):
    """A local file that could not be read (permissions, no longer a regular file)."""

    code = "unreadable"


class VanishedSourceError(DocumentError):
    """A local file removed between listing its folder and reading it."""

    code = "vanished"


class FetchRefusedError(DocumentError):
    """A URL, or an address it resolves or redirects to, that may not be fetched; nothing was sent to it."""

    code = "fetch_refused"


class FetchFailedError(DocumentError):
    """A fetch that started but gave no page: an HTTP error, a limit, a timeout, a broken connection."""

    code = "fetch_failed"


class ParserFailedError(DocumentError):
    """A parser failed on input it should have handled or refused: a defect of the parser, reported as the
    document's status so the batch goes on. Not cached, so a fixed parser tries the bytes again."""

    code = "parser_error"


class StorageError(DocshelfError):
    """A store could not read or write an object."""


class IndexBackendError(DocshelfError):
    """A search index backend failed (named to avoid shadowing the builtin IndexError)."""


class InvalidQueryError(DocshelfError):
    """A search request that cannot be served as asked."""


class InvalidConfigError(DocshelfError, ValueError):
    """A setting outside its allowed range."""


class InvalidNameError(DocshelfError):
    """A namespace or key that does not follow the naming rules."""


# Failures decided by the bytes alone; too_large and timeout depend on the limits in force, needs_ocr on whether
# OCR is on and has its language data here, and unsupported_format on the file's name (a text format is told by its
# extension) or on a parser being installed.
_BYTES_ONLY_ERRORS: dict[str, type[DocumentError]] = {
    cls.code: cls for cls in (EncryptedDocumentError, CorruptDocumentError, EmptyDocumentError)
}


def is_cacheable_failure(error: DocumentError) -> bool:
    return error.code in _BYTES_ONLY_ERRORS


def document_error(code: str, message: str, page: int | None = None) -> DocumentError:
    """Rebuild a cached failure as the error it was."""
    known: dict[str, type[DocumentError]] = {
        **_BYTES_ONLY_ERRORS,
        NeedsOcrError.code: NeedsOcrError,
        UnsupportedFormatError.code: UnsupportedFormatError,
    }
    return known.get(code, CorruptDocumentError)(message, page=page)
