"""Extractive section summaries for doc_nav.json and the manifest's HIERARCHY, so an outline says something
without a model: the section's lead sentence, then its most distinctive terms (frequent in the section, rare in
the document's other sections), the whole bounded in cl100k tokens."""

from __future__ import annotations

import heapq
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from itertools import chain
from operator import mul, neg

from docshelf.index.analyzer import analyze, normalize, pieces_content_terms
from docshelf.model import Block, Document
from docshelf.scripts import CJK_LETTERS
from docshelf.structure import section_paths
from docshelf.tokens import count_tokens

SUMMARY_TOKENS = 48
LEAD_CHARS = 240
# A summary reads at most this much of a section: the lead is at its start, and its distinctive terms show within
# it. Reading whole sections made a one-paragraph text peak at many times its size (docs/evaluation.md,
# "Figures from code comments").
SECTION_SAMPLE_CHARS = 20_000
DISTINCT_TERMS = 5
WORD_TERMS_LIMIT = 100_000
_COMMA_WORD_TOKENS: dict[str, int] = {}
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")
_WORD = re.compile(rf"[^\W\d_{CJK_LETTERS}]{{3,}}")
_CJK_PAIR = re.compile(rf"^[{CJK_LETTERS}]{{2}}$")


def section_summaries(document: Document | None) -> dict[tuple[str, ...], str]:
    """Section path -> summary, for every section with text of its own."""
    if document is None:
        return {}
    texts = _section_texts(document.blocks())
    # Each section's whitespace pieces, normalised as the analyzer normalises them: its terms are theirs.
    pieces = {path: normalize(text).split() for path, text in texts.items()}
    frequencies = {path: Counter(pieces_content_terms(found)) for path, found in pieces.items()}
    document_frequency: Counter[str] = Counter()
    for counts in frequencies.values():
        document_frequency.update(counts.keys())
    sections = len(texts)
    return {
        path: _bounded(
            _lead_sentence(text), _distinct_words(pieces[path], frequencies[path], document_frequency, sections)
        )
        for path, text in texts.items()
        if path
    }


def _section_texts(blocks: Iterable[Block]) -> dict[tuple[str, ...], str]:
    """Each section's text, its first SECTION_SAMPLE_CHARS."""
    parts: dict[tuple[str, ...], list[str]] = {}
    room: dict[tuple[str, ...], int] = {}
    for block, path in section_paths(blocks):
        texts = parts.setdefault(path, [])
        left = room.setdefault(path, SECTION_SAMPLE_CHARS)
        if block.kind == "heading" or left <= 0:
            continue
        text = getattr(block, "text", "") if block.kind != "table" else block.caption
        if text and text.strip():
            texts.append(text.strip()[:left])
            room[path] = left - len(texts[-1]) - 1
    return {path: "\n".join(texts) for path, texts in parts.items() if texts}


def _lead_sentence(text: str) -> str:
    """The first sentence, its whitespace collapsed, at most LEAD_CHARS: read from the section's start (collapsing
    a whole long section's whitespace cost more than the rest of its summary)."""
    head = text[: 4 * LEAD_CHARS]
    first = " ".join(head.split())
    if len(first) <= LEAD_CHARS < len(text):  # mostly whitespace so far: the sentence may go on past the head
        first = " ".join(text.split())
    sentence = _SENTENCE_END.split(first, maxsplit=1)[0]
    return sentence if len(sentence) <= LEAD_CHARS else sentence[: LEAD_CHARS - 1].rstrip() + "…"


def _distinct_words(
    pieces: list[str], counts: Counter[str], document_frequency: Counter[str], sections: int
) -> list[str]:
    """The section's words whose analyzed term weighs most by tf-idf among the document's sections, as written.
    `pieces`: the section's normalised whitespace pieces (a word never spans two)."""
    distinct = list(dict.fromkeys(pieces))
    # term -> the first word giving it: the pairs of the words in reverse, the first word's written last (all in C)
    surface = dict(chain.from_iterable(map(_PIECE_PAIRS.__getitem__, reversed(distinct))))
    if not all(map(str.isascii, distinct)):
        surface.update((term, term) for term in counts if len(term) == 2 and _CJK_PAIR.match(term))  # as written
    idf = [0.0, *(math.log(1 + sections / holding) for holding in range(1, sections + 1))]
    kept = list(filter(surface.__contains__, counts))
    weights = map(mul, map(counts.__getitem__, kept), map(idf.__getitem__, map(document_frequency.__getitem__, kept)))
    best = heapq.nsmallest(DISTINCT_TERMS, zip(map(neg, weights), kept, strict=True))  # heaviest first; a tie: by term
    return list(dict.fromkeys(surface[term] for _, term in best))


class _PiecePairs(dict[str, tuple[tuple[str, str], ...]]):
    """A normalised piece's (term, word) for each of `analyze(word)` of its words (`_WORD` matches), the last
    word's first, computed on first sight: sections of one language share most of their pieces."""

    def __missing__(self, piece: str) -> tuple[tuple[str, str], ...]:
        if len(self) >= WORD_TERMS_LIMIT:
            self.clear()
        if piece.isascii() and piece.isalpha():  # one plain word, as _WORD would find it
            words: list[str] = [piece] if len(piece) >= 3 else []
        else:
            words = _WORD.findall(piece)
        pairs = self[piece] = tuple((term, word) for word in reversed(words) for term in analyze(word))
        return pairs


_PIECE_PAIRS = _PiecePairs()


def _bounded(lead: str, words: list[str]) -> str:
    """The lead and as many terms as fit in `SUMMARY_TOKENS`; a lead too long alone is cut (by words, or by
    characters in a script without spaces).

    Each longer candidate is the previous one and `, word`: after a letter or digit the comma starts a new
    cl100k pre-token (no pre-token runs from a letter or digit into punctuation), so the candidate's count is
    the previous one's and that of `, word` alone, which is remembered. After any other character it is encoded."""
    chosen: list[str] = []
    count = 0
    for word in words:
        if chosen and unicodedata.category(chosen[-1][-1])[0] in "LN":
            count += _comma_word_tokens(word)
        else:
            count = count_tokens(_with_terms(lead, [*chosen, word]))
        if count > SUMMARY_TOKENS:
            break
        chosen.append(word)
    summary = _with_terms(lead, chosen)
    if chosen:
        return summary  # its count is within the bound
    while count_tokens(summary) > SUMMARY_TOKENS:
        summary = summary.rsplit(" ", 1)[0] if " " in summary else summary[: len(summary) * 4 // 5]
    return summary


def _comma_word_tokens(word: str) -> int:
    """`count_tokens(", " + word)`, remembered."""
    count = _COMMA_WORD_TOKENS.get(word)
    if count is None:
        if len(_COMMA_WORD_TOKENS) >= WORD_TERMS_LIMIT:
            _COMMA_WORD_TOKENS.clear()
        count = _COMMA_WORD_TOKENS[word] = count_tokens(", " + word)
    return count


def _with_terms(lead: str, terms: list[str]) -> str:
    return f"{lead} — {', '.join(terms)}" if terms else lead
