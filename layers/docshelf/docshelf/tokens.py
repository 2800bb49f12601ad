"""Token counting with tiktoken's cl100k_base, loaded from the vocabulary shipped with the package.

tiktoken downloads vocabularies on first use; that fails offline and in a Lambda without internet.
`infra/fetch_vocab.py` places the file in `docshelf/vocab/` (under the name tiktoken's cache would use,
the sha1 of its download address), and the encoding is built from it here, never from the network.
"""

from __future__ import annotations

import binascii
import bisect
import hashlib
import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from docshelf import forked
from docshelf.errors import DocshelfError

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "cl100k_base"
VOCAB_DIR = Path(__file__).parent / "vocab"
VOCAB_CACHE_KEY = "9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
VOCAB_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
PARALLEL_COUNT_MIN_CHARS = 100_000
MAX_COUNT_THREADS = 4
LONG_TEXT_CHARS = 1 << 20  # counted in pieces above this (see _count_long)


class VocabularyMissingError(DocshelfError):
    pass


# tiktoken_ext.openai_public.cl100k_base()'s pattern and special tokens (a test compares them).
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """cl100k_base from the shipped file. Parsed here rather than by `tiktoken.get_encoding`, whose line by
    line base64 decoding takes ~0.55 s of the ~0.7 s a first search in a new process (a Lambda's cold first
    request, each `docshelf search`) would spend loading the encoder."""
    import tiktoken

    return tiktoken.Encoding(
        name=ENCODING_NAME,
        pat_str=CL100K_PATTERN,
        mergeable_ranks=mergeable_ranks(),
        special_tokens=CL100K_SPECIAL_TOKENS,
    )


def mergeable_ranks() -> dict[bytes, int]:
    """token bytes -> rank from the shipped `.tiktoken` file (lines of `<base64 token> <rank>`), checked
    against the sha256 tiktoken pins for it."""
    path = VOCAB_DIR / VOCAB_CACHE_KEY
    if not path.is_file():
        raise VocabularyMissingError(
            f"the {ENCODING_NAME} vocabulary is missing from {VOCAB_DIR}; run `python infra/fetch_vocab.py`"
        )
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != VOCAB_SHA256:
        raise VocabularyMissingError(f"{path} is not the {ENCODING_NAME} vocabulary (sha256 mismatch)")
    fields = data.split()
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))


def encode(text: str) -> list[int]:
    # Special-token names in a document are its text: `encode_ordinary` is `encode(text, disallowed_special=())`
    # without the scan for them (about 10% faster on prose).
    return encoding().encode_ordinary(text)


def decode(tokens: Sequence[int]) -> str:
    return encoding().decode(list(tokens))


def count_tokens(text: str) -> int:
    if not text:
        return 0
    if len(text) > LONG_TEXT_CHARS:
        return _count_long(encoding().encode_ordinary, text)
    return len(encode(text))


def _count_long(encode_ordinary: Callable[[str], list[int]], text: str) -> int:
    """The token count of a long text, encoded in pieces of about LONG_TEXT_CHARS: one encoding of 50 MB made a
    list of 10 million ints (400 MB). The pieces are cut before a space that follows a letter or digit, where
    cl100k's pattern always starts a new pre-token (no pre-token holds a space after its first character, and
    none but whitespace ones starts with a space and goes on past it), so the counts add up exactly. A text
    with no such place (no spaces at all) is encoded whole."""
    total, start = 0, 0
    while start < len(text):
        cut = start + LONG_TEXT_CHARS
        while cut < len(text) and not (text[cut] == " " and text[cut - 1].isalnum()):
            cut = text.find(" ", cut + 1)
            if cut < 0:
                cut = len(text)
        total += len(encode_ordinary(text[start:cut]))
        start = cut
    return total


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    """Token counts of many texts. Large batches are cut into one contiguous slice per CPU, counted in threads
    (tiktoken releases the GIL while encoding); tiktoken's own batch call submits one task per text, which
    costs more than encoding the short texts of a document."""
    texts = list(texts)
    encode_ordinary = encoding().encode_ordinary  # loaded once, before any thread needs it

    def count(batch: Sequence[str]) -> list[int]:
        return [
            (_count_long(encode_ordinary, text) if len(text) > LONG_TEXT_CHARS else len(encode_ordinary(text)))
            if text
            else 0
            for text in batch
        ]

    if len(texts) < 2 or sum(map(len, texts)) < PARALLEL_COUNT_MIN_CHARS:
        return count(texts)
    workers = min(MAX_COUNT_THREADS, forked.spare_cpus(), len(texts))
    if workers < 2:
        return count(texts)
    bounds = _balanced_slices([len(text) for text in texts], workers)
    with ThreadPoolExecutor(workers) as pool:
        slices = list(pool.map(count, (texts[start:end] for start, end in bounds)))
    return [n for counts in slices for n in counts]


def _balanced_slices(sizes: Sequence[int], parts: int) -> list[tuple[int, int]]:
    """At most `parts` contiguous, non-empty index ranges covering `sizes`, with about equal sums."""
    prefix = list(itertools.accumulate(sizes))
    total = prefix[-1] if prefix else 0
    cuts = [0]
    for part in range(1, parts):
        cut = bisect.bisect_left(prefix, total * part / parts) + 1
        cut = min(max(cut, cuts[-1] + 1), len(sizes) - (parts - part))
        if cut > cuts[-1]:
            cuts.append(cut)
    cuts.append(len(sizes))
    return list(itertools.pairwise(cuts))
