"""Which of the configured languages read a page, from the scripts a quick first pass finds on it.

Tesseract reads a page with several models best when the page's own language comes first, and best of all with
that language alone: with `eng+chi_sim+jpn`, the first words of Chinese paragraphs came out as Latin letters (CER
14-33% against 1.5% with `chi_sim` alone), and `jpn+eng` did the same to a degraded Japanese page (30% against 1.7%
with `jpn`). So a first pass reads the page at a third of its resolution with one model that knows every script
the configured languages use (Japanese's reads Han, kana and Latin letters; Chinese's Han and Latin) and counts
them; the full pass then runs with the page's language alone. On the tests' pages the Japanese model's first pass
told English, Chinese (no kana at all) and Japanese apart, clean and degraded, in 0.1-0.3 CPU s, a third of what the
three models together took, without holding those three loaded once more.
"""

from __future__ import annotations

import re

from docshelf.scripts import HALF_WIDTH_KATAKANA, HAN, KANA, KATAKANA_EXTENSIONS

_HAN = re.compile(f"[{HAN}]")
_KANA = re.compile(f"[{KANA}{KATAKANA_EXTENSIONS}{HALF_WIDTH_KATAKANA}]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
HAN_LANGUAGES = ("chi_sim", "chi_tra")
CJK_LANGUAGES = (*HAN_LANGUAGES, "jpn", "kor")
# Models that read every script of the languages configured with them, widest first.
FIRST_PASS_LANGUAGES = ("jpn", *HAN_LANGUAGES)
# Below this share of the letters, Han and kana are stray marks the models made of noise.
CJK_SHARE = 0.1
# Japanese mixes kana with Han; Chinese has none.
KANA_SHARE = 0.1


def first_pass_language(configured: tuple[str, ...]) -> str | None:
    """The model the first pass reads with, or None when scripts cannot tell the configured languages apart (one
    language, or only languages written in Latin letters): the page is then read with all of them at once."""
    if len(configured) < 2:
        return None
    return next((code for code in FIRST_PASS_LANGUAGES if code in configured), None)


def letter_count(first_pass: str) -> int:
    """The letters of the scripts the first pass tells apart."""
    return sum(len(pattern.findall(first_pass)) for pattern in (_HAN, _KANA, _LATIN))


def has_letters(first_pass: str) -> bool:
    """Whether a first pass read any letter of the scripts it tells apart."""
    return any(pattern.search(first_pass) for pattern in (_HAN, _KANA, _LATIN))


def choose_languages(first_pass: str, configured: tuple[str, ...]) -> tuple[str, ...]:
    """The language of a page whose first pass read `first_pass`, for the full pass."""
    han, kana, latin = (len(pattern.findall(first_pass)) for pattern in (_HAN, _KANA, _LATIN))
    letters = han + kana + latin
    if letters == 0:
        reader = first_pass_language(configured)
        return (reader,) if reader else configured
    if han + kana < CJK_SHARE * letters:
        latin_languages = [code for code in configured if code not in CJK_LANGUAGES]
        return (latin_languages[0],) if latin_languages else configured
    if kana >= KANA_SHARE * (han + kana) and "jpn" in configured:
        return ("jpn",)
    return (next((code for code in configured if code in HAN_LANGUAGES), configured[0]),)
