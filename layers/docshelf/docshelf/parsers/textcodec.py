"""Decoding bytes of text formats: BOMs, strict UTF-8, the declared charset read as browsers read it, then detection
(CJK by how common the decoded characters are, the rest statistically), never garbage without a warning."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from docshelf.errors import UnsupportedFormatError
from docshelf.parsers.cjk_detect import ALL_COMMON, best_cjk_decoding, half_width_katakana, iso2022_jp

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
# Detections the CJK detector decides between (it also hears them as a hint).
CJK_DETECTIONS = frozenset(
    {
        "cp932", "shift_jis", "shift_jis_2004", "shift_jisx0213", "euc_jp", "euc_jis_2004", "euc_jisx0213",
        "iso2022_jp", "gb2312", "gbk", "gb18030", "hz", "big5", "big5hkscs", "cp950", "cp949", "euc_kr", "johab",
    }
)  # fmt: skip

# Labels as the WHATWG Encoding Standard (what browsers do) reads them: Shift_JIS is windows-31j, GB2312 is GB18030,
# EUC-KR is windows-949, ISO-8859-1 is windows-1252. Python's own `shift_jis` lacks the NEC and IBM kanji (髙, 﨑) and
# maps 0x8160 to 〜 where Windows has ～.
LABELS = {
    **dict.fromkeys(
        ["shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "ms932", "windows-31j", "csshiftjis", "x-ms-cp932"],
        "cp932",
    ),
    **dict.fromkeys(["euc-jp", "x-euc-jp", "cseucpkdfmtjapanese"], "euc_jp"),
    **dict.fromkeys(["iso-2022-jp", "csiso2022jp"], "iso2022_jp_ext"),
    **dict.fromkeys(
        ["gb2312", "gbk", "x-gbk", "gb_2312-80", "chinese", "csgb2312", "iso-ir-58", "cp936", "ms936", "windows-936"],
        "gb18030",
    ),
    **dict.fromkeys(["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"], "big5hkscs"),
    **dict.fromkeys(["euc-kr", "ks_c_5601-1987", "ksc5601", "ks_c_5601-1989", "windows-949", "cseuckr"], "cp949"),
    **dict.fromkeys(["iso-8859-1", "latin-1", "latin1", "ascii", "us-ascii", "iso8859-1", "l1"], "cp1252"),
}

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
DETECTION_SAMPLE = 200_000
AMBIGUITY_SHOWN = 40  # characters of another reading of ambiguous bytes a warning shows

MAC_ROMAN = 10000


@dataclass(frozen=True, slots=True)
class DecodedText:
    text: str
    encoding: str
    # What a reader should know about the decoding: a declared charset the bytes are not in, replaced bytes.
    warnings: list[str] = field(default_factory=list)
    detected: bool = False  # the encoding was guessed: no BOM, not UTF-8, no charset declared that decodes

    def document_warnings(self) -> list[str]:
        """The warnings, with a detected encoding named first (a reader can check a guess)."""
        return [f"decoded as {self.encoding}" for _ in range(self.detected)] + self.warnings


def decode_text(data: bytes, *, declared: str | None = None) -> tuple[str, str]:
    """Return (text, encoding). `declared` (e.g. an HTML meta charset) is tried after BOM and UTF-8.

    Raises UnsupportedFormatError for binary content that is not text in any encoding.
    """
    decoded = decode_report(data, declared=declared)
    return decoded.text, decoded.encoding


def decode_report(data: bytes, *, declared: str | None = None) -> DecodedText:
    """`decode_text` with the warnings a document should carry about it."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _replacing(data[len(bom) :], encoding, [])
    jis = iso2022_jp(data)  # 7-bit: it would pass for UTF-8, escape sequences and all
    if jis is not None:
        return DecodedText(jis, "iso2022_jp_ext", detected=not declared)
    try:
        return DecodedText(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    warnings: list[str] = []
    if declared:
        label = charset_codec(declared)
        try:
            return DecodedText(data.decode(label), label)
        except (UnicodeDecodeError, LookupError):
            warnings.append(f"the declared charset {declared!r} does not decode the bytes; the encoding was detected")
    if _looks_binary(data):
        raise UnsupportedFormatError("binary content, not text in any known encoding")
    encoding, ambiguity = _detected(data[:DETECTION_SAMPLE])
    return _replacing(data, encoding, [*warnings, *ambiguity], detected=True)


def _detected(sample: bytes) -> tuple[str, list[str]]:
    """The detected encoding, and warnings when the bytes read as common text in another encoding too."""
    from charset_normalizer import from_bytes

    whole = _whole_characters(sample)
    # Half-width katakana: a statistical detector reads their single Shift_JIS bytes as Cyrillic or Latin capitals,
    # and their EUC-JP byte pairs as kanji.
    half_width = half_width_katakana(whole)
    if half_width == "euc_jp":
        return half_width, []
    best = from_bytes(sample).best()
    guess = str(best.encoding) if best is not None and best.encoding else ""
    # UTF-16 without a BOM has NULs (its ASCII's high bytes, its line breaks): a short CJK text is guessed UTF-16.
    unlikely = guess.startswith("utf_16") and b"\x00" not in sample
    if guess in TRUSTED_DETECTIONS and guess not in CJK_DETECTIONS and not unlikely and half_width is None:
        return guess, []
    cjk = best_cjk_decoding(whole, hint=guess)
    # Two half-width katakana are one double-byte character of EUC, GBK or Big5: a reading whose characters are all
    # everyday ones is likelier than katakana (short Chinese texts read so, 北京市 is ｱｱｾｩﾊﾐ), any other is not.
    if cjk is not None and (half_width is None or cjk.share >= ALL_COMMON):
        rivals = [*cjk.rivals, *([(half_width, whole.decode(half_width))] if half_width else [])]
        return cjk.encoding, [_ambiguity(encoding, text) for encoding, text in rivals]
    if half_width is not None:
        return half_width, []
    if unlikely or guess not in TRUSTED_DETECTIONS or guess in CJK_DETECTIONS:
        # No CJK reading is plausible (a lone Latin-1 byte reads as a half-width katakana in cp932), and detection
        # cannot tell the Latin single-byte code pages apart on short texts (cp1250, mac_latin2 and even cp1006
        # score alike for "Crème"): windows-1252, which is also what browsers assume for unlabelled pages.
        return "cp1252", []
    return guess, []


def _ambiguity(encoding: str, text: str) -> str:
    shown = " ".join(text.split())
    shown = shown if len(shown) <= AMBIGUITY_SHOWN else shown[: AMBIGUITY_SHOWN - 1] + "…"
    return f"the encoding is ambiguous: in {encoding} the bytes read as {shown!r}"


def _whole_characters(sample: bytes) -> bytes:
    """The sample without a multibyte character that its cut may have split (at the last line break)."""
    if len(sample) < DETECTION_SAMPLE:
        return sample
    end = sample.rfind(b"\n")
    return sample[: end + 1] if end > 0 else sample


def _replacing(data: bytes, encoding: str, warnings: list[str], *, detected: bool = False) -> DecodedText:
    """The bytes decoded, undecodable ones replaced by U+FFFD and counted in a warning."""
    try:
        return DecodedText(data.decode(encoding), encoding, warnings, detected)
    except UnicodeDecodeError:
        pass
    except LookupError:
        encoding = "cp1252"
    text = data.decode(encoding, errors="replace")
    replaced = text.count("\ufffd") - data.decode(encoding, errors="ignore").count("\ufffd")
    replacing = f"{replaced} undecodable byte sequences in {encoding} replaced by U+FFFD"
    return DecodedText(text, encoding, [*warnings, replacing], detected)


def code_page_codec(number: int) -> str:
    """The Python codec of a Windows code page number (RTF's \\ansicpg, an Outlook message's PR_INTERNET_CPID):
    Mac Roman for 10000, `cp1252` for a number no codec here reads."""
    if number == MAC_ROMAN:
        return "mac_roman"
    try:
        return codecs.lookup(f"cp{number}").name
    except LookupError:
        return "cp1252"


def charset_codec(label: str) -> str:
    """The Python codec of a charset label, as browsers read the label."""
    name = label.strip().strip("\"'").lower()
    return LABELS.get(name, name)


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
