"""OLE compound files for tests (no installed library writes .doc or .ppt): a minimal writer, version 3 with
512-byte sectors, every stream padded to the 4096-byte mini-stream cutoff so no mini FAT is needed."""

from __future__ import annotations

import struct

SECTOR = 512
FREE, END, FATSECT = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD


def compound_file(streams: dict[str, bytes]) -> bytes:
    # Siblings form a binary search tree ordered as MS-CFB compares names (length first, then upper case): each
    # entry's right sibling is the next name in that order, a valid (if unbalanced) tree.
    streams = dict(sorted(streams.items(), key=lambda item: (len(item[0]), item[0].upper())))
    bodies = [body.ljust(max(4096, -(-len(body) // SECTOR) * SECTOR), b"\0") for body in streams.values()]
    counts = [len(body) // SECTOR for body in bodies]
    dir_sectors = -(-(len(streams) + 1) // 4)
    data_sectors = sum(counts) + dir_sectors
    fat_sectors = 1
    while (data_sectors + fat_sectors) > fat_sectors * 128:
        fat_sectors += 1
    fat: list[int] = [FATSECT] * fat_sectors
    starts = []
    for count in counts:
        starts.append(len(fat))
        fat.extend([*range(len(fat) + 1, len(fat) + count), END])
    dir_start = len(fat)
    fat.extend([*range(len(fat) + 1, len(fat) + dir_sectors), END])
    fat.extend([FREE] * (fat_sectors * 128 - len(fat)))
    entries = [_entry("Root Entry", 5, END, 0, child=1 if streams else FREE)]
    names = list(streams)
    for index, (name, start) in enumerate(zip(names, starts, strict=True)):
        right = index + 2 if index + 1 < len(names) else FREE
        entries.append(_entry(name, 2, start, len(bodies[index]), right=right))
    entries += [_entry("", 0, 0, 0)] * (dir_sectors * 4 - len(entries))
    directory = b"".join(entries)
    difat = list(range(fat_sectors)) + [FREE] * (109 - fat_sectors)
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        b"\0" * 16,
        0x3E,
        3,
        0xFFFE,
        9,
        6,
        b"\0" * 6,
        0,
        fat_sectors,
        dir_start,
        0,
        4096,
        END,
        0,
        END,
        0,
    ) + struct.pack("<109I", *difat)
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat)
    return header + fat_bytes + b"".join(bodies) + directory


def _entry(name: str, kind: int, start: int, size: int, *, child: int = FREE, right: int = FREE) -> bytes:
    encoded = (name + "\0").encode("utf-16-le") if name else b""
    return struct.pack(
        "<64sHBBIII16sIQQIII",
        encoded.ljust(64, b"\0"),
        len(encoded),
        kind,
        1,
        FREE,
        right,
        child,
        b"\0" * 16,
        0,
        0,
        0,
        start,
        size,
        0,
    )


WORD_TEXT_OFFSET = 2048


def word97_document(paragraphs: list[str], *, encrypted: bool = False, stylesheet: bool = False) -> bytes:
    """A Word 97 file as MS-DOC describes it: a FIB, the text in one compressed (cp1252) piece, the piece table in
    the 1Table stream. No paragraph properties; with `stylesheet`, an STSH of one empty style slot before it.

    unword refuses the file without a stylesheet (`STSH too short`) and panics on it with one (no PAPX pages);
    legacy-doc reads both."""
    text = "".join(paragraph + "\r" for paragraph in paragraphs).encode("cp1252")
    fib = bytearray(WORD_TEXT_OFFSET)
    struct.pack_into("<HHHHH", fib, 0, 0xA5EC, 0x00C1, 0, 0x0409, 0)
    struct.pack_into("<H", fib, 0x0A, (1 << 9) | (0x0100 if encrypted else 0))  # fWhichTblStm, fEncrypted
    struct.pack_into("<H", fib, 0x0C, 0x00BF)
    struct.pack_into("<II", fib, 0x18, WORD_TEXT_OFFSET, WORD_TEXT_OFFSET + len(text))  # fcMin, fcMac
    struct.pack_into("<H", fib, 32, 14)  # csw
    struct.pack_into("<H", fib, 62, 22)  # cslw
    struct.pack_into("<I", fib, 64, WORD_TEXT_OFFSET + len(text))  # cbMac
    struct.pack_into("<I", fib, 76, len(text))  # ccpText
    struct.pack_into("<H", fib, 152, 0x5D)  # cbRgFcLcb
    piece = struct.pack("<HIH", 0, (WORD_TEXT_OFFSET * 2) | 0x40000000, 0)  # fCompressed: byte offset fc / 2
    plc = struct.pack("<II", 0, len(text)) + piece
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    stsh = _one_slot_stylesheet() if stylesheet else b""
    struct.pack_into("<II", fib, 154 + 1 * 8, 0, len(stsh))  # fcStshf, lcbStshf
    struct.pack_into("<II", fib, 154 + 33 * 8, len(stsh), len(clx))  # fcClx, lcbClx
    return compound_file({"WordDocument": bytes(fib) + text, "1Table": stsh + clx})


def _one_slot_stylesheet() -> bytes:
    # STSHI: cstd 1, cbSTDBaseInFile 10, fStdStylenamesWritten, stiMaxWhenSaved, istdMaxFixedWhenSaved, version,
    # three default fonts; then one LPStd of length 0 (an empty slot).
    stshi = struct.pack("<HHHHHH", 1, 10, 1, 0x5B, 15, 0) + struct.pack("<HHH", 0, 0, 0)
    return struct.pack("<H", len(stshi)) + stshi + struct.pack("<H", 0)
