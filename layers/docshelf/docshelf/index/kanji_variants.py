"""Variant kanji that are the same character to a Japanese reader, folded to the common form after NFKC.

NFKC folds the CJK compatibility ideographs that have a canonical decomposition (U+FA10 塚 is U+585A 塚), but not the
twelve of U+FA0E-U+FA29 that Unicode made unified ideographs, nor the variants encoded as ideographs of their own.
Japanese names are written with such variants (山﨑 for 山崎, 髙橋 for 高橋), and a staff member searching types the
common form, so the analyzer folds them on both sides, index and query, in every engine.

The table is small on purpose. It holds the kanji of the Windows Shift_JIS (cp932) NEC-selected IBM and IBM extension
rows that NFKC leaves alone and that the Unihan database (Unicode 15.0, Unihan_Variants.txt) records as a
z-variant of a JIS X 0208 kanji: a kZVariant, or a kSemanticVariant that Morohashi's Dai Kan-Wa Jiten calls the same
character (`kMorohashi:Z`); and by hand, 髙 (hashigo-daka, a design of 高 that Unihan links only as a semantic
variant) and 𠮷 (tsuchi-yoshi, 吉 with a longer lower stroke; Unihan: kSpoofingVariant). Unihan's looser semantic
variants are out (徳/德 are not linked at all, 濵 is linked to both 濱 and 瀕), and so are the old and new forms that
Japanese registers keep apart and Traditional Chinese writes (邊/辺, 濱/浜, 國/国): folding those would make
different names and words meet.
"""

from __future__ import annotations

VARIANT_KANJI: dict[str, str] = {
    "\ufa11": "崎",  # 﨑 U+FA11, kSemanticVariant U+5D0E <kMorohashi:Z
    "\u9ad9": "高",  # 髙 U+9AD9, by hand
    "\U00020bb7": "吉",  # 𠮷 U+20BB7, by hand
    "\u6085": "悦",  # 悅 U+6085, kZVariant U+60A6
    "\u7dd6": "緒",  # 緖 U+7DD6, kZVariant U+7DD2
    "\u90de": "郎",  # 郞 U+90DE, kZVariant U+90CE
    "\u9115": "郷",  # 鄕 U+9115, kZVariant U+90F7
    "\u9ed1": "黒",  # 黑 U+9ED1, kZVariant U+9ED2
}

_FOLD = str.maketrans(VARIANT_KANJI)


def fold_variant_kanji(text: str) -> str:
    """`text` with each variant kanji as its common form (one character for one: offsets do not move). Looking for
    each variant with `in` first costs a text without them 0.5 us per 2,500 characters (a regular expression's search,
    10 us; `translate`, more)."""
    if text.isascii():  # a flag of the string, read in constant time
        return text
    return text.translate(_FOLD) if any(variant in text for variant in VARIANT_KANJI) else text
