"""Which CJK encoding a text is in, decided without a dictionary: by how common its characters are in the decoding.

Every CJK character set ranks its characters: JIS X 0208 puts the 2,965 everyday kanji in level 1 (Shift_JIS lead
bytes 0x88-0x98), GB 2312 the 3,755 everyday hanzi in level 1 (lead bytes 0xB0-0xD7), Big5 its 5,401 common hanzi
at 0xA440-0xC67E, KS X 1001 the 2,350 everyday hangul syllables. Bytes read in their own encoding are mostly such
characters (and kana, for Japanese); read in another one they land anywhere, in rare characters and extensions. A
statistical detector that has not seen enough bytes reads a short Shift_JIS memo as GB18030 (`钹嫶 嶳頃`): this one
does not need many.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Candidates in the order that breaks a tie (ISO-2022-JP is told by its escape sequences, before this).
CANDIDATES = ("cp932", "euc_jp", "gb18030", "big5", "cp949")
# How much of a decoding is scored (the whole is decoded strictly): thousands of characters decide it.
SCORED_CHARS = 20_000
# The share of a decoding's non-ASCII characters that must be common for it to be trusted.
MIN_COMMON_SHARE = 0.6
# Shares this close to the best are a tie; a tie without other evidence goes to the first of TIE_ORDER.
TIE = 0.05
TIE_ORDER = ("gb18030", "big5", "cp949")
_CANONICAL = {"shift_jis": "cp932", "euc_kr": "cp949", "gb2312": "gb18030", "gbk": "gb18030", "big5hkscs": "big5"}
_LONE_HALF_WIDTH_KANA = re.compile("(?<![\uff61-\uff9f])[\uff61-\uff9f](?![\uff61-\uff9f])")
_ISO2022_ESCAPES = (b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I", b"\x1b$(D")


def iso2022_jp(data: bytes) -> str | None:
    """The text of 7-bit ISO-2022-JP bytes (JIS escapes, the half-width katakana set too), else None."""
    if not any(escape in data for escape in _ISO2022_ESCAPES) or any(byte > 0x7F for byte in data):
        return None
    try:
        return data.decode("iso2022_jp_ext")
    except UnicodeDecodeError:
        return None


def best_cjk_decoding(data: bytes, hint: str = "") -> tuple[str, str, float] | None:
    """(text, encoding, common share) of the CJK decoding whose characters are the most common, when one decodes
    the bytes strictly and holds at least MIN_COMMON_SHARE common characters; None otherwise.

    The EUC encodings (EUC-JP, GB 2312, EUC-KR) share their byte layout, and a short text can read as common
    characters in more than one: a tie goes to `hint` (a statistical detector's guess) when it is one of them, to
    Japanese when the text has kana (both EUC-JP and GB 2312 hold kana at the same bytes, so Chinese text that has
    them is rare), else to Chinese."""
    scored = []
    for encoding in CANDIDATES:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        share = common_share(text, _COMMON[encoding])
        if share >= MIN_COMMON_SHARE:
            scored.append((share, encoding, text))
    if not scored:
        return None
    top = max(share for share, _, _ in scored)
    tied = {encoding: (text, encoding, share) for share, encoding, text in scored if share >= top - TIE}
    if len(tied) == 1:
        return next(iter(tied.values()))
    if _CANONICAL.get(hint, hint) in tied:
        return tied[_CANONICAL.get(hint, hint)]
    if "cp949" in tied and _spaced_hangul(tied["cp949"][0]):
        return tied["cp949"]
    for encoding in ("cp932", "euc_jp"):
        if encoding in tied and _kana_share(tied[encoding][0]) >= 0.1:
            return tied[encoding]
    return next(tied[encoding] for encoding in (*TIE_ORDER, *CANDIDATES) if encoding in tied)


def _spaced_hangul(text: str) -> bool:
    """Korean separates its words by spaces, every few syllables; Chinese and Japanese do not."""
    hangul = sum(1 for char in text if "\uac00" <= char <= "\ud7a3")
    return hangul >= len([char for char in text if ord(char) > 0x7F]) * 0.8 and text.count(" ") * 6 >= hangul > 0


def _kana_share(text: str) -> float:
    wide = [char for char in text if ord(char) > 0x7F]
    return sum(1 for char in wide if "\u3041" <= char <= "\u30ff") / len(wide) if wide else 0.0


def common_share(text: str, common: Callable[[str], float]) -> float:
    """The share of the text's non-ASCII characters that are common in a language (punctuation counts as common),
    each weighted by `common`. A half-width katakana standing alone between ASCII characters counts for nothing:
    it is what a Latin-1 letter (é, ©) reads as in Shift_JIS, where half-width katakana words are runs."""
    wide = [char for char in _LONE_HALF_WIDTH_KANA.sub("\ue000", text[:SCORED_CHARS]) if ord(char) > 0x7F]
    if not wide:
        return 0.0
    weights: dict[str, float] = {"\ue000": 0.0}
    for char in set(wide) - weights.keys():
        weights[char] = 1.0 if _punctuation(char) else common(char)
    return sum(map(weights.__getitem__, wide)) / len(wide)


def _punctuation(char: str) -> bool:
    return "\u3000" <= char <= "\u303f" or unicodedata.category(char)[0] in "PSZ"


def _japanese(char: str) -> float:
    if "\u3041" <= char <= "\u30ff" or "\uff10" <= char <= "\uff5e":  # kana, full-width digits and letters
        return 1.0
    if "\uff61" <= char <= "\uff9f":  # half-width katakana: in use, and what Chinese bytes read as in Shift_JIS
        return 0.5
    return float("\u4e00" <= char <= "\u9fff" and _encoded_between(char, "cp932", b"\x88\x9f", b"\x98\x72"))


def _chinese(char: str) -> float:
    return float("\u4e00" <= char <= "\u9fff" and _encoded_between(char, "gb2312", b"\xb0\xa1", b"\xd7\xf9"))


def _traditional_chinese(char: str) -> float:
    return float("\u4e00" <= char <= "\u9fff" and _encoded_between(char, "big5", b"\xa4\x40", b"\xc6\x7e"))


def _korean(char: str) -> float:
    if "\uac00" <= char <= "\ud7a3":
        return float(_encoded_between(char, "euc_kr", b"\xb0\xa1", b"\xc8\xfe"))
    return 0.3 * ("\u4e00" <= char <= "\u9fff" and _encoded_between(char, "euc_kr", b"\xca\xa1", b"\xfd\xfe"))


def _encoded_between(char: str, encoding: str, low: bytes, high: bytes) -> bool:
    try:
        encoded = char.encode(encoding)
    except UnicodeEncodeError:
        return False
    return low <= encoded <= high


_COMMON: dict[str, Callable[[str], float]] = {
    "cp932": _japanese,
    "euc_jp": _japanese,
    "gb18030": _chinese,
    "big5": _traditional_chinese,
    "cp949": _korean,
}
