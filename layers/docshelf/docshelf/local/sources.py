"""The files a local ingest reads, each with its source key (its identity in a namespace), and reading one.

A file inside a folder argument is keyed by its path relative to that folder; a file argument by its name.
Names the file system cannot decode are kept: their undecodable bytes become `\\xNN` in the key, so a key is
always valid text and the same file always gets the same key. Two different files that would get the same key
(`x/readme.txt y/readme.txt`, or two folders holding the same relative path) are refused, both of them: neither
may silently replace the other. Symlinks are followed only while their target stays inside the folder argument,
unless `follow_symlinks`; each folder is walked once, so a symlink loop ends.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from docshelf.errors import DocshelfError


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
            raise DocshelfError(f"{shown(path)}: {_not_a_source(path)}")
    candidates = _distinct_keys(candidates)
    by_key: dict[str, list[Path]] = {}
    for source in candidates:
        by_key.setdefault(source.key, []).append(source.path)
    for key, found in by_key.items():
        if len(found) > 1:  # the same file named twice, or different files no longer path tells apart
            distinct = {os.path.realpath(path): shown(path) for path in found}
            if len(distinct) > 1:
                listing.collisions[key] = sorted(distinct.values())
    listed: set[str] = set()  # the same file named twice is read once
    for source in candidates:
        if source.key not in listing.collisions and source.key not in listed:
            listed.add(source.key)
            listing.files.append(source)
    return listing


def _distinct_keys(candidates: list[SourceFile]) -> list[SourceFile]:
    """Different files that would share a key (`a/readme.txt b/readme.txt`, two folders holding `docs/x.md`) keyed
    by as many of the folders above them as tell them apart (`a/readme.txt`, `b/readme.txt`); the same file named
    twice keeps its one key."""
    by_key: dict[str, list[SourceFile]] = {}
    for source in candidates:
        by_key.setdefault(source.key, []).append(source)
    renamed: dict[int, str] = {}
    for sharing in by_key.values():
        if len({os.path.realpath(source.path) for source in sharing}) < 2:
            continue
        parents = [Path(os.path.abspath(source.path)).parent.parts for source in sharing]  # noqa: PTH100 (not resolved: symlinks keep their names)
        for depth in range(1, max(map(len, parents)) + 1):
            keys = [_with_parents(source.key, folders, depth) for source, folders in zip(sharing, parents, strict=True)]
            if len(set(keys)) == len({os.path.realpath(source.path) for source in sharing}):
                renamed.update((id(source), key) for source, key in zip(sharing, keys, strict=True))
                break
    return [SourceFile(source.path, renamed.get(id(source), source.key)) for source in candidates]


def _with_parents(key: str, folders: tuple[str, ...], depth: int) -> str:
    """`key` under the last `depth` folders of those above the file that the key does not hold already."""
    above = folders[: len(folders) - key.count("/")]
    named = [shown(folder) for folder in above[1:]][-depth:]  # parts[0] is the root
    return "/".join([*named, key])


def _not_a_source(path: Path) -> str:
    """Why an argument is neither a file nor a folder."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a symlink whose target does not exist" if path.is_symlink() else "no such file or folder"
    except OSError as error:  # EACCES: a folder on the way cannot be searched
        return "a symlink loop" if error.errno == errno.ELOOP else f"cannot be read ({error.strerror})"
    kinds = {stat.S_ISFIFO: "a FIFO", stat.S_ISSOCK: "a socket", stat.S_ISCHR: "a device", stat.S_ISBLK: "a device"}
    kind = next((name for test, name in kinds.items() if test(mode)), "not a regular file")
    return f"{kind}, not a file or folder"


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
