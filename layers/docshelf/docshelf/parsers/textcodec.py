"""Decoding bytes of text formats: BOMs, strict UTF-8, then statistical detection, never garbage."""

from __future__ import annotations

import codecs

from docshelf.errors import UnsupportedFormatError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode_text(data: bytes, *, declared: str | None = None) -> tuple[str, str]:
    """Return (text, encoding). `declared` (e.g. an HTML meta charset) is tried after BOM and UTF-8.

    Raises UnsupportedFormatError for binary content that is not text in any encoding.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if declared:
        try:
            return data.decode(_normalise(declared)), _normalise(declared)
        except (UnicodeDecodeError, LookupError):
            pass
    if _looks_binary(data):
        raise UnsupportedFormatError("binary content, not text in any known encoding")
    from charset_normalizer import from_bytes

    best = from_bytes(data[:200_000]).best()
    guess = best.encoding if best is not None and best.encoding else "cp1252"
    if guess in _WESTERN_LOOKALIKES and _decodes(data, "cp1252"):
        # On short texts the detector cannot tell cp1252 from its neighbours ("Crème" read as
        # cp1250 gives "Crčme"); cp1252 is by far the most common of them.
        guess = "cp1252"
    try:
        return data.decode(guess), guess
    except (UnicodeDecodeError, LookupError):
        return data.decode("cp1252", errors="replace"), "cp1252"


_WESTERN_LOOKALIKES = frozenset(
    {"cp1250", "cp1252", "cp1254", "cp1257", "latin_1", "iso8859_2", "iso8859_9", "iso8859_15", "mac_roman",
     "mac_latin2", "cp850", "cp437"}
)  # fmt: skip


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _normalise(name: str) -> str:
    name = name.strip().strip("\"'").lower()
    return {"iso-8859-1": "cp1252", "latin-1": "cp1252", "latin1": "cp1252", "ascii": "cp1252"}.get(name, name)


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if not sample:
        return False
    if b"\x00" in sample:
        # UTF-16 without a BOM has NULs at every other byte; real binaries have them scattered.
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        return not (max(even, odd) > len(sample) // 4 and min(even, odd) < len(sample) // 50)
    controls = sum(1 for byte in sample if byte < 9 or 13 < byte < 32)
    return controls > len(sample) // 20
