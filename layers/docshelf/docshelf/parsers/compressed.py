"""Compressed files and tar archives. A `.gz`, `.bz2` or `.xz` file around one file (`report.pdf.gz`,
`server.log.gz`) is read as that file, its pages its own: expanded in steps and never past ParseLimits.max_bytes, so
a bomb ends as `too_large` before it fills memory; a file compressed twice over is refused (a compressed file can
hold itself). A plain `.tar` is read as a zip archive is (parsers/archive.py): a list of the files, then each under a
heading of its path. A compressed tar (`.tar.gz`, `.tgz`, `.tar.bz2`, `.tar.xz`) is read the same way as a stream,
never held expanded: once for its list, once more for its files in the archive's order, each file within
ParseLimits.max_bytes and the whole within max_decompressed_bytes (what lies past that limit is named, not read)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import posixpath
import tarfile
import zlib
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import IO

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EmptyDocumentError, UnsupportedFormatError
from docshelf.parsers.archive import Member, archive_content
from docshelf.parsers.base import ParsedContent, ParseLimits

TAR_MAGIC = b"ustar"
TAR_MAGIC_AT = 257
_STEP = 1024 * 1024
_READ_AHEAD = 64 * 1024  # what a tar stream reads ahead of tarfile: the expansion limit holds within it
# The compressed formats by their signature, and a reader of each one's stream.
_STREAMS: dict[bytes, Callable[[IO[bytes]], io.BufferedIOBase]] = {
    b"\x1f\x8b": lambda raw: gzip.GzipFile(fileobj=raw),
    b"BZh": bz2.BZ2File,
    b"\xfd7zXZ\x00": lzma.LZMAFile,
}
# A compressed file's suffix -> its content's: `.gz` is taken away, `.tgz` is a `.tar`.
_SUFFIXES = {".gz": "", ".bz2": "", ".xz": "", ".tgz": ".tar", ".tbz2": ".tar", ".tbz": ".tar", ".txz": ".tar"}
_STREAM_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError)


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    inner_name = expanded_name(filename)
    opener = next((open_stream for magic, open_stream in _STREAMS.items() if data.startswith(magic)), None)
    if opener is None:
        return _tar(data, filename, limits)
    if is_tar(_head(opener, data)):
        return _streamed_tar(opener, data, filename, limits)
    expanded = _expand(opener, data, limits)
    if not expanded.strip():
        raise EmptyDocumentError("the compressed file holds nothing")
    if is_tar(expanded):
        return _tar(expanded, filename, limits)
    if any(expanded.startswith(magic) for magic in _STREAMS):
        raise UnsupportedFormatError("a compressed file inside a compressed file (compressed twice)")
    return _one_file(expanded, inner_name, filename, limits)


def is_tar(data: bytes) -> bool:
    return data[TAR_MAGIC_AT : TAR_MAGIC_AT + len(TAR_MAGIC)] == TAR_MAGIC


def expanded_name(filename: str) -> str:
    """The name of what a compressed file holds: `report.pdf.gz` -> `report.pdf`, `docs.tgz` -> `docs.tar`."""
    path = PurePosixPath(filename)
    replacement = _SUFFIXES.get(path.suffix.casefold())
    return filename if replacement is None else str(path.with_suffix(replacement))


def _expand(opener: Callable[[IO[bytes]], io.BufferedIOBase], data: bytes, limits: ParseLimits) -> bytes:
    """The stream expanded, in steps, raising DocumentTooLargeError the moment it passes ParseLimits.max_bytes."""
    out = bytearray()
    try:
        with opener(io.BytesIO(data)) as stream:
            while step := stream.read(_STEP):
                out += step
                if len(out) > limits.max_bytes:
                    raise DocumentTooLargeError(
                        f"expands to more than {limits.max_bytes} bytes (decompression bomb guard)"
                    )
    except _STREAM_ERRORS as exc:
        raise CorruptDocumentError(f"not a readable compressed file: {exc}") from exc
    return bytes(out)


def _one_file(data: bytes, name: str, filename: str, limits: ParseLimits) -> ParsedContent:
    """The file a compressed file holds, read as that file is (its format by its bytes, then its name). A title the
    reader took from the name it was given is the compressed file's own name (which the parse cache knows to
    replace), and messages name no file: the same bytes under another name read alike."""
    from docshelf.parsers import load_parser
    from docshelf.parsers.detect import detect_format

    fmt = detect_format(data, name, limits=limits)
    if fmt is None or fmt in ("ole", "ole-encrypted"):
        raise UnsupportedFormatError("the file it holds is of a format docshelf does not read")
    content = load_parser(fmt)(data, filename=name, limits=limits)
    if content.title == PurePosixPath(name).name:
        content.title = PurePosixPath(filename).name
    return content


def _tar(data: bytes, filename: str, limits: ParseLimits) -> ParsedContent:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:")  # noqa: SIM115 - closed once its files are read
    except (tarfile.TarError, *_STREAM_ERRORS) as exc:
        raise CorruptDocumentError(f"not a readable tar archive: {exc}") from exc
    infos: list[tarfile.TarInfo] = []
    try:
        while (info := archive.next()) is not None:
            infos.append(info)
    except (tarfile.TarError, *_STREAM_ERRORS):  # cut short: the files whose headers came through are named
        pass
    by_name = {info.name: info for info in infos if info.isfile()}  # a file added twice is read as extracted: the last
    members = [Member(_tar_path(info.name), info.name, info.size) for info in by_name.values()]

    def read(member: Member) -> bytes:
        try:
            stream = archive.extractfile(by_name[member.name])
            if stream is None:
                raise CorruptDocumentError("it has no data in the archive")
            return stream.read(limits.max_bytes + 1)
        except (tarfile.TarError, *_STREAM_ERRORS) as exc:
            raise CorruptDocumentError(f"unreadable in the archive: {exc}") from exc

    with archive:
        return archive_content(members, read, filename, limits)


def _head(opener: Callable[[IO[bytes]], io.BufferedIOBase], data: bytes) -> bytes:
    """The first block of what a compressed stream holds (enough to tell a tar)."""
    try:
        with opener(io.BytesIO(data)) as stream:
            return stream.read(512)
    except _STREAM_ERRORS:
        return b""


class _Capped(io.RawIOBase):
    """A decompressing stream that raises DocumentTooLargeError once more than `limit` bytes came out of it."""

    def __init__(self, stream: io.BufferedIOBase, limit: int) -> None:
        self.stream, self.limit, self.out = stream, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        read = self.stream.readinto(buffer)
        self.out += read
        if self.out > self.limit:
            raise DocumentTooLargeError(f"expands to more than {self.limit} bytes (decompression bomb guard)")
        return read


def _stream(opener: Callable[[IO[bytes]], io.BufferedIOBase], data: bytes, limits: ParseLimits) -> tarfile.TarFile:
    """The compressed tar as a stream of members (tarfile's `r|`: each member's data only as it passes)."""
    capped = io.BufferedReader(
        _Capped(opener(io.BytesIO(data)), limits.max_decompressed_bytes), buffer_size=_READ_AHEAD
    )
    return tarfile.open(fileobj=capped, mode="r|")


def _streamed_tar(
    opener: Callable[[IO[bytes]], io.BufferedIOBase], data: bytes, filename: str, limits: ParseLimits
) -> ParsedContent:
    """A compressed tar read without holding it expanded: its list from a first pass over the stream, its files
    from a second, in the archive's order (a file added twice is read as extraction would leave it, the last)."""
    found: list[tarfile.TarInfo] = []
    cut = ""
    try:
        with _stream(opener, data, limits) as archive:
            _members(archive, found)
    except DocumentTooLargeError as exc:  # the files whose headers came before the limit are read
        cut = str(exc)
    except (tarfile.TarError, *_STREAM_ERRORS) as exc:
        if not found:
            raise CorruptDocumentError(f"not a readable tar archive: {exc}") from exc
    entries = [info for info in found if info.isfile()]
    last = {info.name: ordinal for ordinal, info in enumerate(entries)}
    members = [Member(_tar_path(info.name), str(ordinal), info.size) for info, ordinal in
               ((entries[ordinal], ordinal) for ordinal in sorted(last.values()))]  # fmt: skip
    reader = _Sequential(opener, data, limits)
    try:
        content = archive_content(members, reader.read, filename, limits, in_order=True)
    finally:
        reader.close()
    if cut:
        content.truncation = "; ".join(
            part for part in (content.truncation, f"files after these not read: {cut}") if part
        )
    return content


def _members(archive: tarfile.TarFile, found: list[tarfile.TarInfo]) -> None:
    """The members whose headers come through, into `found` (a tar cut short keeps those)."""
    try:
        while (info := archive.next()) is not None:
            found.append(info)
    except (tarfile.TarError, *_STREAM_ERRORS):
        pass


class _Sequential:
    """The files of a tar stream read in its order: a member's `name` is its ordinal among the regular files."""

    def __init__(self, opener: Callable[[IO[bytes]], io.BufferedIOBase], data: bytes, limits: ParseLimits) -> None:
        self.archive = _stream(opener, data, limits)
        self.limits = limits
        self.ordinal = -1  # the regular file the stream stands at
        self.current: tarfile.TarInfo | None = None

    def read(self, member: Member) -> bytes:
        wanted = int(member.name)
        try:
            while self.ordinal < wanted:
                self.current = self.archive.next()
                if self.current is None:
                    break
                if self.current.isfile():
                    self.ordinal += 1
            stream = self.archive.extractfile(self.current) if self.current and self.ordinal == wanted else None
            if stream is None:
                raise CorruptDocumentError("it has no data in the archive")
            return stream.read(self.limits.max_bytes + 1)
        except (tarfile.TarError, *_STREAM_ERRORS) as exc:
            raise CorruptDocumentError(f"unreadable in the archive: {exc}") from exc

    def close(self) -> None:
        self.archive.close()


def _tar_path(name: str) -> str:
    """A member's path as a file manager shows it: `./docs/a.pdf` -> `docs/a.pdf`."""
    return posixpath.normpath("/" + name.replace("\\", "/")).lstrip("/")
