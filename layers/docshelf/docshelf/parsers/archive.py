"""Zip archives of documents (`.zip`): a list of the files, then each file read as the document it is under a heading
of its path in the archive (its own headings below it). A file that cannot be read is named with the reason and the
rest are read (the archive is then `partial`); so is every file once the time budget runs out. Members are read one
level deep (parsers/nesting.py), and an archive is one page: its files' own pages are not cited, as an e-mail's
attachments' are not. Each file's declared size and compression ratio are checked before it is inflated
(parsers/safe_zip.py), and the files read stay within the archive's expansion limit: a bomb among the files is
named and left, the others are read."""

from __future__ import annotations

import contextlib
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from docshelf.errors import (
    CorruptDocumentError,
    DocumentError,
    DocumentTooLargeError,
    EmptyDocumentError,
    EncryptedDocumentError,
    ParseTimeoutError,
)
from docshelf.model import Document, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.nesting import inside_container, member_block, reading_members
from docshelf.parsers.safe_zip import member_too_large, open_zip, read_member

MAX_FILES = 1000  # files read from one archive; the rest are named in the list only
SHOWN_REASONS = 5  # unread files named in the status; every one is in the warnings
_ENCRYPTED_FLAG = 0x1
_UTF8_FLAG = 0x800
# What a file manager or an OS leaves in archives beside the documents.
_LEFT_OUT_FOLDERS = ("__MACOSX/",)
_LEFT_OUT_NAMES = frozenset({".ds_store", "thumbs.db", "desktop.ini"})


@dataclass(frozen=True)
class Member:
    """A file of an archive."""

    path: str  # as a file manager shows it
    name: str  # as the archive names it, for its reader
    size: int  # as the archive declares it
    encrypted: bool = False
    compressed: int = -1  # its compressed size, when the archive compresses each file apart (zip)


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    what = f"zip archive {filename!r}"
    with open_zip(data, limits, what=what, check_sizes=False) as archive:  # each file is checked before it is read
        members = [
            Member(
                _shown_path(info),
                info.filename,
                info.file_size,
                bool(info.flag_bits & _ENCRYPTED_FLAG),
                info.compress_size,
            )
            for info in archive.infolist()
            if not info.is_dir()
        ]
        return archive_content(
            members, lambda member: read_member(archive, member.name, limits, what=what), filename, limits
        )


def archive_content(
    members: list[Member],
    read: Callable[[Member], bytes],
    filename: str,
    limits: ParseLimits,
    *,
    in_order: bool = False,
) -> ParsedContent:
    """The archive's content: a list of its documents, then each read (`read` gives a member's bytes; `in_order`:
    they are read in the archive's order, for an archive read as a stream, else in path order); inside another
    container, the list only."""
    documents = _documents(members, sort=not in_order)
    if not documents:
        raise EmptyDocumentError("the archive holds no files")
    listing = Paragraph(text="Files: " + ", ".join(member.path for member in documents), page=1)
    if inside_container():
        return ParsedContent(blocks=[listing], page_count=1)
    return _read(documents, listing, read, limits, PurePosixPath(filename).name)


_Read = Callable[[bytes, str, ParseLimits], "tuple[Document, dict[str, bytes]] | DocumentError"]


def _read(
    members: list[Member], listing: Paragraph, read: Callable[[Member], bytes], limits: ParseLimits, title: str
) -> ParsedContent:
    from docshelf.parsers import read_attached  # the registry, which imports this module

    content = ParsedContent(blocks=[listing], page_count=1, title=title)
    unread: list[tuple[str, DocumentError]] = []
    expanded = 0  # the bytes the files read so far declare: the archive as a whole stays within the limit
    with reading_members():
        for number, member in enumerate(members):
            if number == MAX_FILES:
                over = DocumentTooLargeError(f"past the first {MAX_FILES} files of the archive, which are read")
                unread += [(rest.path, over) for rest in members[number:]]
                break
            expanded += member.size
            if expanded > limits.max_decompressed_bytes:
                limit = f"past the {limits.max_decompressed_bytes} bytes an archive may expand to (zip bomb guard)"
                unread.append((member.path, DocumentTooLargeError(limit)))
                continue
            try:
                document = _document(member, read, limits, read_attached)
            except ParseTimeoutError as exc:  # what was read is kept; the budget is spent
                unread += [(rest.path, exc) for rest in members[number:]]
                break
            if isinstance(document, DocumentError):
                unread.append((member.path, document))
                continue
            content.blocks.append(Heading(text=member.path, level=1, page=1))
            content.blocks += [member_block(block, 1) for block in document[0].blocks()]
            content.assets.update(document[1])
            content.warnings += [f"{member.path}: {warning}" for warning in document[0].warnings]
    if len(unread) == len(members):
        raise _nothing_read(unread)
    content.warnings += [f"{path}: not read ({error.code}: {error})" for path, error in unread]
    if unread:
        shown = "; ".join(f"{path}: {error.code}" for path, error in unread[:SHOWN_REASONS])
        more = f"; {len(unread) - SHOWN_REASONS} more" if len(unread) > SHOWN_REASONS else ""
        content.truncation = f"{len(members) - len(unread)} of {len(members)} files read ({shown}{more})"
    return content


def _document(
    member: Member, read: Callable[[Member], bytes], limits: ParseLimits, read_attached: _Read
) -> tuple[Document, dict[str, bytes]] | DocumentError:
    """The member read as the document it is (its format by its name and bytes), or why it cannot be."""
    if member.encrypted:
        return EncryptedDocumentError("encrypted inside the archive (it needs the archive's password)")
    if member.size > limits.max_bytes:
        return DocumentTooLargeError(f"{member.size} bytes is over the limit of {limits.max_bytes}")
    if member.compressed >= 0 and (problem := member_too_large(member.size, member.compressed, limits)):
        return DocumentTooLargeError(problem)
    try:
        data = read(member)
    except DocumentError as exc:
        return exc
    return read_attached(data, PurePosixPath(member.path).name, limits)


def _documents(members: list[Member], *, sort: bool = True) -> list[Member]:
    """The archive's documents (in path order when `sort`): nothing a file manager or an OS left beside them."""
    kept = [
        member
        for member in members
        if member.path
        and not member.path.startswith(_LEFT_OUT_FOLDERS)
        and PurePosixPath(member.path).name.casefold() not in _LEFT_OUT_NAMES
    ]
    return sorted(kept, key=lambda member: (member.path.casefold(), member.path)) if sort else kept


def _shown_path(info: zipfile.ZipInfo) -> str:
    """The member's path: zipfile decodes a name without the UTF-8 flag as CP437, though most tools that leave the
    flag off write UTF-8 all the same."""
    name = info.filename
    if not info.flag_bits & _UTF8_FLAG:
        with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
            name = name.encode("cp437").decode("utf-8")
    return name.replace("\\", "/").strip("/")


def _nothing_read(unread: list[tuple[str, DocumentError]]) -> DocumentError:
    """No file could be read: the members' one reason when they share it (every file encrypted), else corrupt."""
    kinds = {type(error) for _, error in unread}
    reasons = "; ".join(f"{path}: {error}" for path, error in unread[:SHOWN_REASONS])
    kind = kinds.pop() if len(kinds) == 1 else CorruptDocumentError
    if issubclass(kind, ParseTimeoutError):
        return ParseTimeoutError(f"no file of the archive was read within the time budget ({reasons})")
    if kind is EncryptedDocumentError:
        return EncryptedDocumentError(f"every file in the archive is encrypted ({reasons})")
    return kind(f"no file in the archive could be read ({reasons})")
