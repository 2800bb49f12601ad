"""An excerpt of a chunk that fits a step's share: the sentence holding most of the step's terms, widened by its
neighbours while the tokens allow. A step whose best chunk is larger than its share still brings the part of it
that matters, where classic evidence would cut the chunk's head."""

from __future__ import annotations

import re

from docshelf.index.analyzer import analyze
from docshelf.tokens import count_tokens

_SENTENCE = re.compile(r"[^.!?。！？\n]*(?:[.!?。！？]+|\n+|$)")


def sentences_of(text: str) -> list[str]:
    return [part for part in _SENTENCE.findall(text) if part.strip()]


def best_excerpt(text: str, terms: set[str], max_tokens: int) -> str:
    """The best-matching sentence and its neighbours, at most `max_tokens` tokens ("" when not even the
    sentence fits: it is then cut by words)."""
    sentences = sentences_of(text)
    if not sentences or max_tokens <= 0:
        return ""
    # CJK text analyzes into characters and their bigrams: the bigrams tell sentences apart, common characters not
    wanted = {term for term in terms if len(term) > 1} or terms
    scores = [len(wanted & set(analyze(sentence))) for sentence in sentences]
    best = max(range(len(sentences)), key=lambda at: (scores[at], -at))
    start, end = best, best + 1
    excerpt = _fit(sentences[best].strip(), max_tokens)
    if not excerpt:
        return ""
    while start > 0 or end < len(sentences):
        grown = False
        for candidate in ((start, end + 1), (start - 1, end)):  # after first: an answer tends to follow its cue
            if candidate[0] >= 0 and candidate[1] <= len(sentences) and candidate != (start, end):
                text_of = "".join(sentences[candidate[0] : candidate[1]]).strip()
                if count_tokens(text_of) <= max_tokens:
                    start, end, excerpt, grown = candidate[0], candidate[1], text_of, True
                    break
        if not grown:
            break
    return excerpt


def _fit(sentence: str, max_tokens: int) -> str:
    while sentence and count_tokens(sentence) > max_tokens:
        sentence = sentence.rsplit(" ", 1)[0] if " " in sentence else sentence[: len(sentence) * 4 // 5]
    return sentence
