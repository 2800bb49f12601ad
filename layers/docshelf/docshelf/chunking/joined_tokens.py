"""The exact cl100k token count of texts joined by a blank line, from the texts' own counts, without encoding the
joined text again (the chunker's check of every chunk's count was one more encoding of the whole document).

tiktoken encodes a text pre-token by pre-token (cl100k's pattern), so a join adds up exactly wherever the pattern
splits the joined text at the same places as the parts: the left part's last pre-token and the right part's first
one stay what they were alone. Right after a letter or digit, `\\n\\n` is one pre-token of its own (one token);
right after a punctuation run (which takes one space before it), the run's pre-token takes the newlines too
(`.\\n\\n`), so the join changes that one pre-token's count. A right part that starts with a non-space character
starts a new pre-token in both cases. Any other join (whitespace at either side, a control or combining character,
a character this Python's Unicode data does not know) is left to the caller, who encodes the joined text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from docshelf.tokens import count_tokens

BLANK_LINE = "\n\n"
_WORD_CATEGORIES = frozenset("LN")
_PUNCTUATION_CATEGORIES = frozenset("PS")
_run_deltas: dict[str, int] = {}


def joined_count(texts: Sequence[str], counts: Sequence[int], joiners: Sequence[str]) -> int | None:
    """`count_tokens(texts[0] + joiners[1] + texts[1] + ...)` from `counts` (each text's exact count), or None
    when a join is not a blank line between parts whose edges keep their pre-tokens."""
    total = counts[0] if texts else 0
    for index in range(1, len(texts)):
        if joiners[index] != BLANK_LINE:
            return None
        delta = _join_delta(texts[index - 1], texts[index])
        if delta is None:
            return None
        total += delta + counts[index]
    return total


def _join_delta(left: str, right: str) -> int | None:
    if not left or not right or _category(right[0]) not in _WORD_CATEGORIES | _PUNCTUATION_CATEGORIES:
        return None
    last = _category(left[-1])
    if last in _WORD_CATEGORIES:
        return _delta("")
    if last not in _PUNCTUATION_CATEGORIES:
        return None
    start = len(left) - 1
    while start > 0 and _category(left[start - 1]) in _PUNCTUATION_CATEGORIES:
        start -= 1
    if start > 0 and left[start - 1] == " ":  # the pattern's ` ?` takes one space into the run
        start -= 1
    return _delta(left[start:])


def _delta(run: str) -> int:
    """Tokens the blank line adds after `run` (a punctuation run's pre-token, or "" after a letter or digit)."""
    known = _run_deltas.get(run)
    if known is None:
        if len(_run_deltas) > 10_000:
            _run_deltas.clear()
        known = _run_deltas[run] = count_tokens(run + BLANK_LINE) - count_tokens(run)
    return known


def _category(char: str) -> str:
    """The first letter of the character's general category ("C" for controls and unassigned ones)."""
    return unicodedata.category(char)[0]
