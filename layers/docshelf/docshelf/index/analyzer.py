"""The one analyzer every backend indexes and queries with (DESIGN §5).

NFKC and case folding; e-mail addresses and identifiers (`TX-100`, `v2.3.1`) kept whole and also
split into their parts; English words stemmed (Snowball) without stop words; Chinese, Japanese
and Korean runs as character bigrams (a lone character as itself), so no dictionary is needed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from docshelf.index.stopwords import ENGLISH_STOP_WORDS

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u312f\u31a0-\u31bf\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"  # hangul
    "\U00020000-\U0002fa1f"
)
_WORD = r"[^\W_" + _CJK + r"]"
_TOKEN = re.compile(
    rf"(?P<email>{_WORD}[\w.+-]*@{_WORD}+(?:[.-]{_WORD}+)*\.{_WORD}{{2,}})"
    rf"|(?P<ident>{_WORD}+(?:[-._/:#+]{_WORD}+)+)"
    rf"|(?P<word>{_WORD}+)"
    rf"|(?P<cjk>[{_CJK}]+)"
)
_PARTS = re.compile(_WORD + "+")


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    stemmed: str = _stemmer().stemWord(word)
    return stemmed


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def cjk_grams(run: str) -> list[str]:
    """Character bigrams of a CJK run, plus its characters (unigrams catch one-character words and
    queries whose bigrams straddle a different word boundary than the text's)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + list(run)


def _word_terms(word: str) -> list[str]:
    if word in ENGLISH_STOP_WORDS:
        return []
    return [stem(word) if word.isascii() and word.isalpha() else word]


def analyze(text: str) -> list[str]:
    """Terms for the `content` and `path` channels."""
    terms: list[str] = []
    for match in _TOKEN.finditer(normalize(text)):
        kind, value = match.lastgroup, match.group()
        if kind == "word":
            terms.extend(_word_terms(value))
        elif kind == "cjk":
            terms.extend(cjk_grams(value))
        else:
            terms.append(value)
            for part in _PARTS.findall(value):
                terms.extend(_word_terms(part))
    return terms


def raw_terms(text: str) -> list[str]:
    """Terms for the `term` channel: surface forms without stemming (stop words left out), and for
    identifiers, e-mail addresses and words with digits also the form without joiners plus its
    character trigrams, so `TX100`, `tx-100` and `TX 100` meet."""
    terms: list[str] = []
    for match in _TOKEN.finditer(normalize(text)):
        kind, value = match.lastgroup, match.group()
        if kind == "cjk":
            terms.extend(cjk_grams(value))
            continue
        if kind == "word" and not any(ch.isdigit() for ch in value):
            if value not in ENGLISH_STOP_WORDS:
                terms.append(value)
            continue
        terms.append(value)
        collapsed = "".join(_PARTS.findall(value))
        if collapsed != value:
            terms.append(collapsed)
        terms.extend(f"#{collapsed[i : i + 3]}" for i in range(len(collapsed) - 2))
    return terms


def path_text(source_file_name: str, section_path: tuple[str, ...]) -> str:
    stem_name = source_file_name.rsplit(".", 1)[0]
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|[_.\-]+", " ", stem_name)
    return " ".join([spaced, *section_path])
