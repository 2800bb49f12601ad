"""Abbreviations a text defines, so that a passage writing `VEEV` matches a question asking about the Venezuelan
equine encephalitis virus.

Reports, papers and manuals name a thing in full once, with its short form in brackets after it, and use the short
form from then on: the sentence that answers a question asked with the full name often holds none of its words. A
definition is found as Schwartz & Hearst (2003) find it: a short form in brackets (one or two words, 2-10 characters,
a letter among them, not a capitalised word such as `(Italy)`) and the words before it in the same sentence, as few
as hold every letter and digit of the short form in order, its first one opening a word, and at most
min(|short| + 5, 2 |short|) words.

Search reads the definitions in its candidates' texts (a paper defines its terms in its abstract or introduction, a
chunk the query's full name ranks) and takes those whose full form the query holds: a sentence holding the short
form then holds the full form's terms too, for choosing passages (search/passages.py, search/packing.py) — as a set,
so a sentence with both counts them once.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType

from docshelf.index.analyzer import analyze, normalize, piece_content_terms

# {a short form's term: its long form's terms}, for the query at hand (`aliases`)
Aliases = Mapping[str, tuple[str, ...]]
NO_ALIASES: Aliases = MappingProxyType({})

# The opening bracket as a literal, ASCII or full width: a pattern opening with a class of both scans four times slower.
# A letter ahead, so that citations and numbers in brackets are passed over in C.
_BRACKETED = re.compile(r"\((?=[^()（）]{0,15}?[^\W\d_])\s*([^()（）\s][^()（）]{0,14}?)\s*[)）]")
_WIDE_BRACKETED = re.compile(r"（(?=[^()（）]{0,15}?[^\W\d_])\s*([^()（）\s][^()（）]{0,14}?)\s*[)）]")
# Up to the last sentence stop before a bracket (greedy: one match, from the end back).
_UP_TO_LAST_STOP = re.compile(r".*[.!?。；;:\n]\s", re.DOTALL)
# Characters read before a bracket: a long form is at most 15 words (a 10-letter short form's), far fewer than these.
_LOOK_BACK = 400
_LAST_WORD = 64  # characters: enough for the last word of any long form


def definitions(text: str, wanted: Collection[str] | None = None) -> dict[str, str]:
    """{short form: long form} of each abbreviation `text` defines ("long form (SF)"), the first definition of a
    short form only; with `wanted`, only those whose long form's last word has a term in it."""
    found: dict[str, str] = {}
    for short, at, last_terms in _short_forms(text):
        if short in found or (wanted is not None and not any(term in wanted for term in last_terms)):
            continue
        before = text[max(0, at - _LOOK_BACK) : at]
        stop = _UP_TO_LAST_STOP.match(before)
        long_form = _long_form(short, before[stop.end() :] if stop else before)
        if long_form is not None:
            found[short] = long_form
    return found


@lru_cache(maxsize=1024)
def _short_forms(text: str) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """Each short form in brackets in `text`, where its bracket opens, and the content terms of the word before it;
    kept for the texts searched last (a long paper's text holds a few brackets a paragraph)."""
    brackets: Iterable[re.Match[str]] = _BRACKETED.finditer(text)
    if "（" in text:
        brackets = sorted([*brackets, *_WIDE_BRACKETED.finditer(text)], key=lambda match: match.start())
    found = []
    for match in brackets:
        short, at = match.group(1), match.start()
        if _is_short_form(short):
            pieces = text[max(0, at - _LAST_WORD) : at].split()
            found.append((short, at, piece_content_terms(normalize(pieces[-1])) if pieces else ()))
    return tuple(found)


def _is_short_form(candidate: str) -> bool:
    return (
        2 <= len(candidate) <= 10
        and candidate[0].isalnum()
        and any(ch.isalpha() for ch in candidate)
        and (not candidate.isalpha() or any(ch.isupper() for ch in candidate))  # not a word in brackets
        and not (candidate.isalpha() and candidate[0].isupper() and candidate[1:].islower())  # nor a name
        and len(candidate.split()) <= 2
    )


def _long_form(short: str, sentence: str) -> str | None:
    """The fewest last words of `sentence` that spell `short` (Schwartz & Hearst's match), spaced by one space, or
    None."""
    words = sentence.split()[-min(len(short) + 5, 2 * len(short)) :]
    if not words:
        return None
    written = " ".join(words)
    text = written.lower()
    chars = [ch for ch in short.lower() if ch.isalnum()]
    at = len(text)
    for ch in reversed(chars[1:]):  # each character before the next one's match
        at = text.rfind(ch, 0, at)
        if at < 0:
            return None
    # The first character opens a word: the nearest word start before `at` that holds it.
    start = len(text) + 1
    for word in reversed(words):
        start -= len(word) + 1
        if start < at and word[:1].lower() == chars[0]:
            break
    else:
        return None
    if len(text) - start <= len(short) or short.lower() in text[start:].split():
        return None
    return written[start:]


def aliased(held: frozenset[str], terms: frozenset[str], aliases: Aliases, wanted: Collection[str]) -> frozenset[str]:
    """`held` (the terms of `wanted` a sentence holds) with the long form's terms of each short form in the sentence's
    `terms`."""
    extra = [term for short, long in aliases.items() if short in terms for term in long if term in wanted]
    return held.union(extra) if extra else held


def aliases(texts: Iterable[str], query_terms: Mapping[str, float]) -> dict[str, tuple[str, ...]]:
    """{short form's term: the long form's terms} for the definitions in `texts` whose long form's content terms are
    all among `query_terms` (two at least) and whose short form, one word, is a term of two characters at least that
    the query does not hold (an identifier's whole form: `mers-cov`, not its parts; `(I B)` is no such word)."""
    found: dict[str, tuple[str, ...]] = {}
    for text in texts:
        for short, long_form in definitions(text, query_terms).items():
            short_terms = analyze(short)
            long_terms = tuple(dict.fromkeys(analyze(long_form)))
            if (
                short_terms
                and len(short.split()) == 1
                and len(short_terms[0]) >= 2
                and short_terms[0] not in query_terms
                and len(long_terms) >= 2
                and all(term in query_terms for term in long_terms)
            ):
                found.setdefault(short_terms[0], long_terms)
    return found
