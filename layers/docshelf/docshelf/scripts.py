"""Character classes of the scripts written without spaces (Han, kana, bopomofo) and of Korean, in one place.

The constants are the inside of a regular expression's `[...]`, so a module can combine them (`[^\\W{CJK_LETTERS}]`)
or use them in look-arounds; `no_space_script` and the compiled patterns answer for one character or a text.
"""

from __future__ import annotations

import re

HIRAGANA = "\u3040-\u309f"
KATAKANA = "\u30a0-\u30ff"
KANA = HIRAGANA + KATAKANA
# Katakana phonetic extensions (small ㇰ, ㇱ... of Ainu and Japanese phonetics).
KATAKANA_EXTENSIONS = "\u31f0-\u31ff"
HALF_WIDTH_KATAKANA = "\uff66-\uff9f"
# CJK unified ideographs, extension A and the compatibility ideographs: the Basic Multilingual Plane's Han.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Extensions B to F and the compatibility supplement (rare characters, names).
HAN_SUPPLEMENTARY = "\U00020000-\U0002fa1f"
BOPOMOFO = "\u3100-\u312f\u31a0-\u31bf"
HANGUL_SYLLABLES = "\uac00-\ud7af"
# Syllables, conjoining jamo and compatibility jamo.
HANGUL = HANGUL_SYLLABLES + "\u1100-\u11ff\u3130-\u318f"
# CJK radicals, Kangxi radicals, ideographic description characters, CJK symbols and punctuation (、。「」).
CJK_SYMBOLS = "\u2e80-\u303f"
# Bopomofo, hangul compatibility jamo, kanbun, bopomofo extended, CJK strokes, katakana phonetic extensions.
CJK_BLOCKS_3100 = "\u3100-\u31ff"
# Half-width and full-width forms (ＡＢＣ, ０-９, ｶﾀｶﾅ, full-width punctuation).
FULL_WIDTH_FORMS = "\uff00-\uffef"

# The letters of the scripts written as characters rather than words (Han, kana, bopomofo) and of hangul: the
# analyzer cuts them into character bigrams, and the embedding models were measured on none of them.
CJK_LETTERS = KANA + BOPOMOFO + KATAKANA_EXTENSIONS + HAN + HANGUL + HAN_SUPPLEMENTARY
# What is written without spaces between words: Han, kana, CJK punctuation and full-width forms. A line break (or
# a gap in a PDF line) between two of these adds no space.
NO_SPACE = CJK_SYMBOLS + KANA + CJK_BLOCKS_3100 + HAN + FULL_WIDTH_FORMS

_NO_SPACE_CHAR = re.compile(f"[{NO_SPACE}]")
_CJK_LETTER = re.compile(f"[{CJK_LETTERS}]")


def no_space_script(char: str) -> bool:
    """Whether `char` (the first character of the text given) belongs to a script written without spaces."""
    return bool(_NO_SPACE_CHAR.match(char))


def east_asian(char: str) -> bool:
    """Whether `char` is at or past the CJK radicals (kana, Han, hangul, full-width forms and what follows them):
    text that word processors set with their East Asian font properties."""
    return char >= "\u2e80"


def has_cjk_letter(text: str) -> bool:
    """Whether `text` holds a Chinese, Japanese or Korean letter anywhere."""
    return _CJK_LETTER.search(text) is not None
