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
from dataclasses import dataclass
from itertools import pairwise

# Candidates in the order that breaks a tie (ISO-2022-JP is told by its escape sequences, before this).
CANDIDATES = ("cp932", "euc_jp", "gb18030", "big5", "cp949")
# How much of a decoding is scored (the whole is decoded strictly): thousands of characters decide it.
SCORED_CHARS = 20_000
# The share of a decoding's non-ASCII characters that must be common for it to be trusted.
MIN_COMMON_SHARE = 0.6
# Shares this close to the best are a tie; a tie without other evidence goes to the first of TIE_ORDER.
TIE = 0.05
ALL_COMMON = 1 - TIE  # a share that ties with every character being common
TIE_ORDER = ("gb18030", "big5", "cp949")
_CANONICAL = {"shift_jis": "cp932", "euc_kr": "cp949", "gb2312": "gb18030", "gbk": "gb18030", "big5hkscs": "big5"}
_LONE_HALF_WIDTH_KANA = re.compile("(?<![\uff61-\uff9f])[\uff61-\uff9f](?![\uff61-\uff9f])")
_ISO2022_ESCAPES = (b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I", b"\x1b$(D")
# Half-width katakana: words of ｦ-ﾟ (U+FF66-U+FF9F), between ASCII and the half-width punctuation ｡｢｣､･.
_HALF_WIDTH_WORD = re.compile("[\uff66-\uff9f]+")
_NOT_HALF_WIDTH = re.compile("[^\x00-\x7f\uff61-\uff9f]")
# Marks that belong to the kana before them: small kana ｧ-ｯ, the long vowel ｰ, ﾝ, the (semi-)voiced sound marks.
_DEPENDENT = frozenset("ｧｨｩｪｫｬｭｮｯｰﾝﾞﾟ")
_VOICED = frozenset("ｳｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾊﾋﾌﾍﾎ")  # what ﾞ follows (ｳﾞ is ヴ)
_SEMI_VOICED = frozenset("ﾊﾋﾌﾍﾎ")  # what ﾟ follows
MIN_HALF_WIDTH_KANA = 3


@dataclass(frozen=True, slots=True)
class CjkDecoding:
    text: str
    encoding: str
    share: float  # of its non-ASCII characters, the common ones (`common_share`)
    # Other encodings whose different reading of the bytes is as common, when nothing but a default chose between
    # them: a short kanji-only text reads as everyday characters in EUC-JP and in GB 2312 alike (東京都 is 澎叠旁).
    rivals: tuple[tuple[str, str], ...] = ()  # (encoding, its text)


def iso2022_jp(data: bytes) -> str | None:
    """The text of 7-bit ISO-2022-JP bytes (JIS escapes, the half-width katakana set too), else None."""
    if not any(escape in data for escape in _ISO2022_ESCAPES) or any(byte > 0x7F for byte in data):
        return None
    try:
        return data.decode("iso2022_jp_ext")
    except UnicodeDecodeError:
        return None


def half_width_katakana(data: bytes) -> str | None:
    """'cp932' or 'euc_jp' when the bytes read in it as ASCII and half-width katakana written as katakana is written,
    else None. Shift_JIS keeps half-width katakana in the single bytes 0xA1-0xDF, where single-byte code pages keep
    letters (KOI8-R and ISO-8859-5 Cyrillic, cp1251's capitals, Latin-1's accented capitals): a statistical detector
    reads a file of them as Cyrillic. EUC-JP writes them as 0x8E and that byte, which Shift_JIS reads as kanji of
    one row (ﾃｽﾄ is 偲漆柴). The test is the script's own spelling, no dictionary: words of two or more, none starting
    with a mark that belongs to the kana before it (small kana, ｰ, ﾝ, ﾞ, ﾟ), ﾞ only after a kana that takes it, ﾟ
    only after ﾊ-ﾎ, and in Shift_JIS at least one of ｦ-ｿ (the vowels, the カ and サ rows, small kana, ｰ: bytes
    0xA6-0xBF, where KOI8-R has box drawing and cp1251 and ISO-8859-5 only rare letters; most katakana texts have
    one, and the lower-case letters of KOI8-R, the capitals of cp1251 are all in 0xC0-0xDF). Cyrillic read so breaks
    these rules: KOI8-R's ч and ISO-8859-5's о are ﾞ. Whether the bytes read better as double-byte characters is the
    caller's to ask (`best_cjk_decoding`)."""
    for encoding in ("cp932", "euc_jp"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if text.isascii() or _NOT_HALF_WIDTH.search(text) is not None:
            continue
        if _spelt_as_katakana(text, first_half_needed=encoding == "cp932"):
            return encoding
    return None


def _spelt_as_katakana(text: str, *, first_half_needed: bool) -> bool:
    words = _HALF_WIDTH_WORD.findall(text)
    if sum(map(len, words)) < MIN_HALF_WIDTH_KANA:
        return False
    if first_half_needed and not any("\uff66" <= char <= "\uff7f" for char in "".join(words)):
        return False
    for word in words:
        if len(word) < 2 or word[0] in _DEPENDENT:
            return False
        for before, char in pairwise(word):
            if (char == "ﾞ" and before not in _VOICED) or (char == "ﾟ" and before not in _SEMI_VOICED):
                return False
    return True


def best_cjk_decoding(data: bytes, hint: str = "") -> CjkDecoding | None:
    """The CJK decoding whose characters are the most common, when one decodes the bytes strictly and holds at least
    MIN_COMMON_SHARE common characters; None otherwise.

    The EUC encodings (EUC-JP, GB 2312, EUC-KR) share their byte layout, and a short text can read as common
    characters in more than one: a tie goes to `hint` (a statistical detector's guess) when it is one of them, to
    Korean when its hangul come in words, to Japanese when the text has kana (both EUC-JP and GB 2312 hold kana at
    the same bytes, so Chinese text that has them is rare), else to Chinese. A tie that neither hangul nor kana
    decide names the other readings as the decoding's `rivals`: the guess of a detector that has seen a few bytes is
    little evidence. How often a language uses each character would tell more, but the character sets do not rank
    their everyday tier (GB 2312 level 1 is in pinyin order, JIS level 1 in reading order), and a frequency list is
    a dictionary."""
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
    tied = {encoding: CjkDecoding(text, encoding, share) for share, encoding, text in scored if share >= top - TIE}
    if len(tied) == 1:
        return next(iter(tied.values()))
    hinted = _CANONICAL.get(hint, hint)
    told = _told_by_script(tied)
    if hinted not in tied and told is not None:
        return tied[told]
    chosen = tied[hinted] if hinted in tied else next(tied[name] for name in (*TIE_ORDER, *CANDIDATES) if name in tied)
    if chosen.encoding == told:
        return chosen
    rivals = tuple((name, other.text) for name, other in tied.items() if other.text != chosen.text)
    return CjkDecoding(chosen.text, chosen.encoding, chosen.share, rivals)


def _told_by_script(tied: dict[str, CjkDecoding]) -> str | None:
    """Korean when the hangul reading's syllables come in space-separated words, Japanese when a reading has kana."""
    if "cp949" in tied and _spaced_hangul(tied["cp949"].text):
        return "cp949"
    return next((name for name in ("cp932", "euc_jp") if name in tied and _kana_share(tied[name].text) >= 0.1), None)


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
