"""Which of the configured languages read a page, from the scripts a quick first pass finds on it.

Tesseract reads a page with several models best when the page's own language comes first: with `eng` first,
measured on Chinese scans, the first words of a paragraph came out as Latin letters (CER 14-33% against 1.5% with
`chi_sim` first). The first pass (the page at a third of its resolution with every configured language, under half
the full pass's time) only counts Han, kana and Latin letters; the full pass then runs with the page's language.
"""

from __future__ import annotations

import re

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
HAN_LANGUAGES = ("chi_sim", "chi_tra")
CJK_LANGUAGES = (*HAN_LANGUAGES, "jpn", "kor")
# Below this share of the letters, Han and kana are stray marks the models made of noise.
CJK_SHARE = 0.1
# Japanese mixes kana with Han; Chinese has none.
KANA_SHARE = 0.1


def choose_languages(first_pass: str, configured: tuple[str, ...]) -> tuple[str, ...]:
    """The languages, first the page's own, for the full pass over a page whose first pass read `first_pass`."""
    han, kana, latin = (len(pattern.findall(first_pass)) for pattern in (_HAN, _KANA, _LATIN))
    letters = han + kana + latin
    if letters == 0:
        return configured
    if han + kana < CJK_SHARE * letters:
        latin_languages = [code for code in configured if code not in CJK_LANGUAGES]
        return (latin_languages[0],) if latin_languages else configured
    if kana >= KANA_SHARE * (han + kana) and "jpn" in configured:
        primary = "jpn"
    else:
        primary = next((code for code in configured if code in HAN_LANGUAGES), configured[0])
    # The page's language alone: the Chinese and Japanese models read Latin letters too, and adding `eng` after
    # them turned a degraded Japanese paragraph into Latin letters (CER 30%, against 1.7% with `jpn` alone).
    return (primary,)
