"""The record stream of an Excel binary workbook's parts ([MS-XLSB] 2.1.4): each record a type and a size, each
a variable-length number of 7-bit groups, then its body; and the few structures the cell records carry."""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator

from docshelf.errors import CorruptDocumentError


def records(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(record type, body) in stream order; a record cut off ends the part as CorruptDocumentError."""
    at, end = 0, len(data)
    while at < end:
        kind, at = _number(data, at, 2)
        size, at = _number(data, at, 4)
        if at + size > end:
            raise CorruptDocumentError(f"a record of type {kind} runs past the end of its part")
        yield kind, data[at : at + size]
        at += size


def _number(data: bytes, at: int, most: int) -> tuple[int, int]:
    value = 0
    for shift in range(most):
        if at >= len(data):
            raise CorruptDocumentError("a record header runs past the end of its part")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << (7 * shift)
        if not byte & 0x80:
            break
    return value, at


def wide_string(body: bytes, at: int) -> tuple[str, int]:
    """An XLWideString (a 32-bit count of UTF-16 code units, then the units) at `at`, and where it ends."""
    if at + 4 > len(body):
        raise CorruptDocumentError("a string runs past the end of its record")
    (count,) = struct.unpack_from("<I", body, at)
    if count == 0xFFFFFFFF:  # XLNullableWideString's null
        return "", at + 4
    end = at + 4 + 2 * count
    if end > len(body):
        raise CorruptDocumentError("a string runs past the end of its record")
    return body[at + 4 : end].decode("utf-16-le", "replace"), end


def rk_number(rk: int) -> float:
    """An RkNumber: a 30-bit integer or the high 30 bits of a double, divided by 100 when its low bit says so."""
    if rk & 0x2:
        value = float(rk >> 2 if rk < 0x80000000 else (rk >> 2) - (1 << 30))
    else:
        value = struct.unpack("<d", struct.pack("<Q", (rk & 0xFFFFFFFC) << 32))[0]
    return value / 100 if rk & 0x1 else value


def real(body: bytes, at: int) -> float | None:
    """An Xnum (a double) at `at`; None when it is no finite number."""
    if at + 8 > len(body):
        raise CorruptDocumentError("a number runs past the end of its record")
    (value,) = struct.unpack_from("<d", body, at)
    return value if math.isfinite(value) else None
