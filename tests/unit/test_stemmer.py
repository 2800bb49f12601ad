"""Stored indexes hold stems: the C stemmer (PyStemmer) and snowballstemmer's pure-Python one must agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from snowballstemmer.english_stemmer import EnglishStemmer

from docshelf.index.analyzer import _stemmer, normalize

SAMPLE = (
    "running runs ran runner generously generalization hopefully relational conditional rational valency "
    "hesitancy digitizer conformably radically differently vilely analogously vietnamization predication "
    "operator feudalism decisiveness hopefulness callousness formality sensitivity sensibility triplicate "
    "formative formalize electriciti electrical hopeful goodness revival allowance inference airliner "
    "gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou "
    "communism activate angulariti homologous effective bowdlerize probate rate cease controll roll "
    "skies dying lying tying news innings outing canning howe proceed exceed succeed cañón naïve façade"
)


def _words(text: str) -> set[str]:
    return {word for word in re.findall(r"[^\W\d_]+", normalize(text)) if word.isascii()}


def _check(words: set[str]) -> None:
    fast = _stemmer()
    reference = EnglishStemmer()
    differing = {word for word in words if fast.stemWord(word) != reference.stemWord(word)}
    assert not differing, sorted(differing)[:20]


def test_the_c_stemmer_is_in_use_and_agrees_on_hard_cases() -> None:
    assert type(_stemmer()).__module__ == "Stemmer"
    _check(_words(SAMPLE))


@pytest.mark.corpus
def test_the_c_stemmer_agrees_on_a_real_vocabulary(ireval_dir: Path) -> None:
    words: set[str] = set()
    for path in sorted((ireval_dir / "med" / "docs").iterdir()):
        words |= _words(path.read_text(encoding="utf-8"))
    assert len(words) > 5000
    _check(words)
