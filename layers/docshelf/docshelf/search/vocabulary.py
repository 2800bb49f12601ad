"""The words of the language, so that spelling correction never rewrites a word that is spelt right.

"annual leave for recent hires" over documents that say "vacation" matches nothing, and "leave" is one edit from
the indexed "leak": correcting it would answer with a valve-leak ticket. A word found in the English word list, or
whose stem is, is therefore never corrected; only words no dictionary knows (typos: "parliment", "gaskt") are.
The list is pyspellchecker's English frequency list (words from subtitles and Wikipedia; common misspellings such
as "recieve" or "goverment" are not in it) without its floor of words seen 50 times, where fragments such as "tyrr"
sit: 57,325 words, read only when a query matched nothing.
"""

from __future__ import annotations

import gzip
import json
import logging
from functools import lru_cache
from importlib import resources

from docshelf.index.analyzer import stem

_log = logging.getLogger(__name__)
WORD_LIST = ("spellchecker", "resources/en.json.gz")
MIN_COUNT = 51  # the list's floor is 50


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The word list (lower case), loaded once: about 0.2 s and 7 MB. Empty, with a warning, when the package is
    missing: corrections then rewrite any word the namespace lacks, as they did before."""
    package, name = WORD_LIST
    try:
        data = resources.files(package).joinpath(name).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as error:
        _log.warning("no English word list (%s): spelling corrections may rewrite real words", error)
        return frozenset()
    counts = json.loads(gzip.decompress(data))
    return frozenset(word for word, count in counts.items() if count >= MIN_COUNT and word.isalpha())


def is_known_word(word: str) -> bool:
    """Whether `word` (case-folded), or its stem, is a word of the list (which holds inflected forms too)."""
    words = english_words()
    return word in words or stem(word) in words
