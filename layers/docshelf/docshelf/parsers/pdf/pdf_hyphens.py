"""Words broken across a line end with a hyphen: rejoined, or the hyphen kept when it is a real one.

No dictionary: the document itself decides, then the cl100k vocabulary the chunker counts with. Paragraphs first
mark each line-end hyphen (`HYPHEN_BREAK`); once every paragraph of the document is read, each mark is resolved:
- the right part starts with a digit (`COVID-19`), or either side is already hyphenated (`state-of-the-art`), or
  with a capital (`Lucene-BM25`) unless the document writes the word whole more often (`GenBank`): the hyphen is
  real;
- the joined word appears elsewhere more often than the hyphenated one (`training`, `multiple`): joined; the
  hyphenated one more often (`open-domain`): kept;
- neither appears: joined when the joined word takes fewer cl100k tokens than its parts (`understanding`,
  `otherwise`, `multiple`: byte-pair merges stand for words seen often as one); kept after a single letter
  (`X-ray`, `T-cell`), and after a lower-case word before a short ending (`follow-up`) or when both parts are
  words of one token each (`long-term`, `self-styled`); else kept when both parts are words the document uses on
  their own (`dual` and `encoder`), joined otherwise (`Fur-` / `nas`, a name broken in a reference list).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from docshelf.tokens import count_tokens

HYPHEN_BREAK = "\x1f"  # control characters never survive text extraction, so this one cannot be text
_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_MARKED = re.compile(rf"\S*{HYPHEN_BREAK}\S*")
_LEFT = re.compile(r"([^\W_]+(?:-[^\W_]+)*)$")
_RIGHT = re.compile(r"^([^\W_]+(?:-[^\W_]+)*)")
MIN_PART = 3  # parts this short (`re`, `in`, `de`) are prefixes and syllables more often than words


@dataclass(slots=True)
class Vocabulary:
    words: Counter[str] = field(default_factory=Counter)
    compounds: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, texts: Iterable[str], wanted: set[str] | None = None) -> Vocabulary:
        """The words and hyphenated compounds of the texts, but those next to a line-end mark; with `wanted`
        (see `wanted_words`), only those words and compounds are kept."""
        tokens: Counter[str] = Counter()
        for text in texts:
            tokens.update(_TOKEN.findall((_MARKED.sub(" ", text) if HYPHEN_BREAK in text else text).casefold()))
        vocabulary = cls()
        for token, count in tokens.items():
            parts = token.split("-") if "-" in token else [token]
            if len(parts) > 1 and (wanted is None or token in wanted):
                vocabulary.compounds[token] += count
            for part in parts:
                if wanted is None or part in wanted:
                    vocabulary.words[part] += count
        return vocabulary


def wanted_words(texts: Iterable[str]) -> set[str]:
    """The words and compounds the marks of the texts ask about: each broken word joined and hyphenated, and its
    two parts."""
    wanted: set[str] = set()
    for text in texts:
        if HYPHEN_BREAK not in text:
            continue
        pieces = text.casefold().split(HYPHEN_BREAK)
        for before, after in itertools.pairwise(pieces):
            left, right = _LEFT.search(before), _RIGHT.match(after)
            if left and right:
                first, second = left.group(1), right.group(1)
                wanted.update((first, second, first + second, f"{first}-{second}"))
    return wanted


def keeps_hyphen(left: str, right: str, vocabulary: Vocabulary) -> bool:
    """Whether `left-` at a line end followed by `right` on the next line is a hyphenated word."""
    if not right or not left:
        return True
    if right[0].isdigit() or "-" in left or "-" in right:
        return True
    joined, hyphenated = (left + right).casefold(), f"{left}-{right}".casefold()
    as_one, as_two = vocabulary.words[joined], vocabulary.compounds[hyphenated]
    if right[0].isupper():
        return as_one <= as_two  # a capital opens a compound's part, unless the document writes the word whole
    if as_one != as_two:
        return as_two > as_one
    if _tokens(f" {left}{right}") < _tokens(f" {left}") + _tokens(right):
        return False
    if len(left) == 1 or (left.islower() and (len(right) < MIN_PART or _one_token_words(left, right))):
        return True
    return (
        len(left) >= MIN_PART
        and len(right) >= MIN_PART
        and vocabulary.words[left.casefold()] > 0
        and vocabulary.words[right.casefold()] > 0
    )


def _one_token_words(left: str, right: str) -> bool:
    """Both parts are words cl100k writes as one token each, which the joined word is not: a compound of common
    words (`long-term`, `self-styled`)."""
    return _tokens(f" {left}") == _tokens(f" {right}") == 1


@lru_cache(maxsize=4096)
def _tokens(text: str) -> int:
    return count_tokens(text)


def resolve(text: str, vocabulary: Vocabulary) -> str:
    """The text with every line-end hyphen mark resolved: the word joined, or its hyphen kept."""
    if HYPHEN_BREAK not in text:
        return text
    pieces = text.split(HYPHEN_BREAK)
    out = [pieces[0]]
    for piece in pieces[1:]:
        before = out[-1]
        left = _LEFT.search(before)
        right = _RIGHT.match(piece)
        keep = keeps_hyphen(left.group(1) if left else "", right.group(1) if right else "", vocabulary)
        out[-1] = before + ("-" if keep else "")
        out.append(piece)
    return "".join(out)
