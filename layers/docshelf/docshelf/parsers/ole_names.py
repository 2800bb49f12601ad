"""The names of the streams and storages at the root of an OLE compound file, for format detection.

A Word file may embed a workbook and a workbook a Word document: their streams sit in storages below the root
(`ObjectPool/...`, `MBD.../`), so only the root's own entries tell what the file is. Reads the header, the FAT
sectors the header lists and the directory chain; bounded by the file's own size, never by its claims.
"""

from __future__ import annotations

import struct

_HEADER = struct.Struct("<8s16sHHHHH6sIIIIIIIII")
_ENTRY = struct.Struct("<64sHBBIII16sIQQIQ")
_END, _FREE = 0xFFFFFFFE, 0xFFFFFFFF
_MAX_ENTRIES = 100_000


def root_names(data: bytes) -> frozenset[str] | None:
    """The root's entry names, or None when the directory cannot be read (callers fall back to other evidence)."""
    try:
        entries = _directory(data)
    except (struct.error, IndexError, ValueError):
        return None
    if not entries:
        return None
    names: set[str] = set()
    pending, seen = [entries[0][3]], set()  # the root's child, then the red-black tree of its siblings
    while pending:
        index = pending.pop()
        if index in (_FREE, _END) or index in seen or index >= len(entries):
            continue
        seen.add(index)
        name, left, right, _child = entries[index]
        names.add(name)
        pending += [left, right]
    return frozenset(names)


def _directory(data: bytes) -> list[tuple[str, int, int, int]]:
    fields = _HEADER.unpack_from(data, 0)
    sector_size = 1 << fields[5]
    if sector_size not in (512, 4096):
        raise ValueError("not a compound file sector size")
    fat_sectors, first_directory = fields[9], fields[10]
    difat = struct.unpack_from("<109I", data, 76)[: min(fat_sectors, 109)]
    fat: list[int] = []
    for sector in difat:
        start = (sector + 1) * sector_size
        fat += struct.unpack_from(f"<{sector_size // 4}I", data, start)
    entries: list[tuple[str, int, int, int]] = []
    sector, visited = first_directory, set()
    while sector not in (_END, _FREE) and sector not in visited and len(entries) < _MAX_ENTRIES:
        visited.add(sector)
        start = (sector + 1) * sector_size
        for offset in range(start, start + sector_size, _ENTRY.size):
            raw = _ENTRY.unpack_from(data, offset)
            name = raw[0][: max(0, raw[1] - 2)].decode("utf-16-le", "replace")
            entries.append((name, raw[4], raw[5], raw[6]))
        sector = fat[sector] if sector < len(fat) else _END
    return entries
