"""The files a local ingest reads, each with its source key (its identity in a namespace), and reading one.

A file inside a folder argument is keyed by its path relative to that folder; a file argument by its name.
Names the file system cannot decode are kept: their undecodable bytes become `\\xNN` in the key, so a key is
always valid text and the same file always gets the same key. Two different files that would get the same key
(`x/readme.txt y/readme.txt`, or two folders holding the same relative path) are refused, both of them: neither
may silently replace the other. Symlinks are followed only while their target stays inside the folder argument,
unless `follow_symlinks`; each folder is walked once, so a symlink loop ends.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from docshelf.errors import DocshelfError, UnreadableSourceError, VanishedSourceError


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: Path
    key: str


@dataclass(slots=True)
class Listing:
    files: list[SourceFile] = field(default_factory=list)
    collisions: dict[str, list[str]] = field(default_factory=dict)  # source key -> the files claiming it (shown)
    skipped: list[str] = field(default_factory=list)  # why an entry was left out, one line each


def shown(name: str | os.PathLike[str]) -> str:
    """A file name as valid text: bytes the file system could not decode as `\\xNN`."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def list_sources(paths: list[Path], *, follow_symlinks: bool = False) -> Listing:
    """Every file to ingest under `paths`, sorted by key within each argument; raises DocshelfError for an
    argument that is neither a file nor a folder."""
    listing = Listing()
    candidates: list[SourceFile] = []
    for path in paths:
        if path.is_dir():
            candidates += _walk(path, follow_symlinks, listing.skipped)
        elif path.is_file():
            candidates.append(SourceFile(path, shown(path.name)))
        else:
            raise DocshelfError(f"no such file or folder: {shown(path)}")
    by_key: dict[str, list[Path]] = {}
    for source in candidates:
        by_key.setdefault(source.key, []).append(source.path)
    for key, found in by_key.items():
        if len(found) > 1:  # the same file named twice, or different files
            distinct = {os.path.realpath(path): shown(path) for path in found}
            if len(distinct) > 1:
                listing.collisions[key] = sorted(distinct.values())
    listed: set[str] = set()  # the same file named twice is read once
    for source in candidates:
        if source.key not in listing.collisions and source.key not in listed:
            listed.add(source.key)
            listing.files.append(source)
    return listing


def _walk(root: Path, follow_symlinks: bool, skipped: list[str]) -> list[SourceFile]:
    root_real = os.path.realpath(root)
    seen_folders = {_identity(root)}
    found: list[SourceFile] = []
    pending = [(root, "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError as error:
            skipped.append(f"{shown(folder)}: cannot list the folder ({error.strerror})")
            continue
        for entry in entries:
            path, key = Path(entry.path), prefix + shown(entry.name)
            try:
                if entry.is_symlink() and not follow_symlinks and not _inside(os.path.realpath(path), root_real):
                    skipped.append(f"{shown(path)}: a symlink out of {shown(root)}, not followed (--follow-symlinks)")
                elif entry.name.startswith("."):  # hidden files and folders (.git, .docshelf) are not documents
                    continue
                elif entry.is_dir():
                    if _identity(path) not in seen_folders:  # a symlink loop, or a folder reached twice
                        seen_folders.add(_identity(path))
                        pending.append((path, key + "/"))
                elif entry.is_file():
                    found.append(SourceFile(path, key))
            except OSError as error:  # gone or unreachable while listing
                skipped.append(f"{shown(path)}: {error.strerror}")
    return sorted(found, key=lambda source: source.key)


def _identity(folder: Path) -> tuple[int, int]:
    info = folder.stat()
    return info.st_dev, info.st_ino


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def read_source(path: Path) -> bytes:
    """A regular file's bytes, or a DocumentError saying why not (it vanished, is no longer a file, or cannot be
    read). Opened without blocking, so a file replaced by a FIFO fails instead of hanging the batch."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise VanishedSourceError("the file was removed before it could be read") from None
    except OSError as error:
        raise UnreadableSourceError(f"cannot open the file: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise UnreadableSourceError("no longer a regular file")
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            return file.read()
    except OSError as error:
        raise UnreadableSourceError(f"cannot read the file: {error.strerror}") from None
    finally:
        os.close(descriptor)
