"""Pure text splitting under a token bound: sentences first, then token windows."""

from __future__ import annotations

import re
from collections.abc import Iterator

from docshelf.tokens import count_tokens, count_tokens_batch, encoding

# A sentence ends after . ! ? (and full-width 。！？．) followed by space, or right after CJK enders. A match holds
# the ender and the space after it: where it ends is the same as with the ender in a look-behind, which made the
# engine test every character of a text (a test holds the two equal), and about twice as fast on prose.
_SENTENCE_END = re.compile(r"[.!?]\s+|[。！？．!?](?=\S)|[。！？．]\s*")


def split_sentences(text: str) -> list[str]:
    """Pieces whose concatenation is exactly `text`; each ends at a sentence boundary."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if end > start and text[start:end].strip():
            pieces.append(text[start:end])
            start = end
    if start < len(text):
        if pieces and not text[start:].strip():
            pieces[-1] += text[start:]
        else:
            pieces.append(text[start:])
    return pieces


def token_windows(text: str, max_tokens: int) -> Iterator[str]:
    """Consecutive slices of `text`, each at most `max_tokens` tokens, cut at token boundaries."""
    enc = encoding()
    start = 0
    while start < len(text):
        span = max_tokens * 8
        while True:
            window = text[start : start + span]
            tokens = enc.encode_ordinary(window)
            if len(tokens) > max_tokens or start + span >= len(text):
                break
            span *= 2
        if len(tokens) <= max_tokens:
            yield window
            return
        # The first max_tokens tokens may end inside a character: keep only its whole characters.
        prefix = b"".join(enc.decode_tokens_bytes(tokens[:max_tokens]))
        end = max(len(prefix.decode("utf-8", errors="ignore")), 1)
        while end > 1 and count_tokens(window[:end]) > max_tokens:
            end -= 1
        yield window[:end]
        start += end


def split_text(text: str, max_tokens: int) -> list[str]:
    """Split an over-long text at sentence ends, packing sentences greedily; windows as last resort.

    The pieces concatenate back to `text` exactly.
    """
    if count_tokens(text) <= max_tokens:
        return [text]
    sentences = split_sentences(text)
    counts = count_tokens_batch(sentences)
    pieces: list[str] = []
    current, used = "", 0
    for sentence, tokens in zip(sentences, counts, strict=True):
        if current and used + tokens > max_tokens:
            pieces.extend(_bounded(current, max_tokens))
            current, used = "", 0
        current += sentence
        used += tokens
    if current:
        pieces.extend(_bounded(current, max_tokens))
    return pieces


def _bounded(text: str, max_tokens: int) -> list[str]:
    """`text` itself when its exact count is within the bound (sums of sentence counts only estimate it)."""
    return [text] if count_tokens(text) <= max_tokens else list(token_windows(text, max_tokens))
