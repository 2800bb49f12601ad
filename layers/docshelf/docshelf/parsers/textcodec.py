"""Decoding bytes of text formats: BOMs, strict UTF-8, then statistical detection, never garbage."""

from __future__ import annotations

import codecs

from docshelf.errors import UnsupportedFormatError

# Detected encodings distinctive enough to trust: CJK, Cyrillic, Greek, Hebrew, Arabic, Thai, EBCDIC.
TRUSTED_DETECTIONS = frozenset(
    {
        "cp932", "shift_jis", "shift_jis_2004", "shift_jisx0213", "euc_jp", "euc_jis_2004", "euc_jisx0213",
        "iso2022_jp", "gb2312", "gbk", "gb18030", "hz", "big5", "big5hkscs", "cp950", "cp949", "euc_kr",
        "johab", "iso2022_kr", "utf_16", "utf_16_le", "utf_16_be", "utf_32", "cp1251", "koi8_r", "koi8_u",
        "cp866", "mac_cyrillic", "iso8859_5", "cp1253", "iso8859_7", "mac_greek", "cp1255", "iso8859_8",
        "cp1256", "iso8859_6", "cp874", "tis_620", "iso8859_11", "cp037", "cp500", "cp1140", "cp273",
    }
)  # fmt: skip

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
    guess = str(best.encoding) if best is not None and best.encoding else ""
    if guess not in TRUSTED_DETECTIONS:
        # Detection cannot tell the Latin single-byte code pages apart on short texts (cp1250,
        # mac_latin2 and even cp1006 score alike for "Crème"), so an untrusted guess falls back to
        # windows-1252, which is also what browsers assume for unlabelled pages.
        guess = "cp1252"
    try:
        return data.decode(guess), guess
    except (UnicodeDecodeError, LookupError):
        return data.decode("cp1252", errors="replace"), "cp1252"


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
