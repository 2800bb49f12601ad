"""The one analyzer every backend indexes and queries with (docs/architecture.md#analyzer).

NFKC, case folding and variant kanji (山﨑 is 山崎: index/kanji_variants.py); e-mail addresses and
identifiers (`TX-100`, `v2.3.1`) kept whole and also split into their parts; English words stemmed
(Snowball) without stop words; Chinese, Japanese and Korean runs as character bigrams (a lone
character as itself), so no dictionary is needed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import accumulate, chain, compress, count
from operator import itemgetter
from typing import Any

from docshelf.index.kanji_variants import fold_variant_kanji
from docshelf.index.plan import Channel
from docshelf.index.stopwords import ENGLISH_STOP_WORDS
from docshelf.model import Chunk
from docshelf.scripts import CJK_LETTERS, HIRAGANA, KANA, KATAKANA

# The most distinct character trigrams (`#abc` terms) a chunk's term channel indexes: the first in text order. A
# table chunk of numbers and codes holds hundreds, which cost a large CSV most of its index memory; a query's own
# trigrams are optional terms (search/query.py), so a chunk whose trigrams were cut still matches by its surface
# forms. The cap bounds a large CSV's ingest memory (docs/evaluation.md, "Figures from code comments").
MAX_CHUNK_TRIGRAMS = 64
TRIGRAM_PREFIX = "#"

# Text is cut into CJK runs and the rest first, so the word patterns need no CJK exclusion: compiling
# `[^\W_<CJK ranges>]` costs ~3 ms an occurrence, which is most of the search function's analyzer import.
_CJK_RUN = re.compile(f"([{CJK_LETTERS}]+)")
_WORD = r"[^\W_]"
_TOKEN = re.compile(
    rf"(?P<email>{_WORD}[\w.+-]*@{_WORD}+(?:[.-]{_WORD}+)*\.{_WORD}{{2,}})"
    rf"|(?P<ident>{_WORD}+(?:[-._/:#+]{_WORD}+)+)"
    rf"|(?P<word>{_WORD}+)"
)
_TOKEN_TEXT = re.compile(re.sub(r"\(\?P<\w+>", "(?:", _TOKEN.pattern))
_PARTS = re.compile(_WORD + "+")


def normalize(text: str) -> str:
    return fold_variant_kanji(unicodedata.normalize("NFKC", text).casefold())


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    stemmed: str = _stemmer().stemWord(word)
    return stemmed


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    """PyStemmer's C stemmer without its own word cache (`stem` has one): that cache's upkeep makes a word
    it has not seen cost 1.6-2.9 us instead of 0.3-0.5; snowballstemmer's pure-Python one if it is absent."""
    try:
        import Stemmer
    except ImportError:
        import snowballstemmer

        return snowballstemmer.stemmer("english")
    return Stemmer.Stemmer("english", 0)


def cjk_grams(run: str) -> list[str]:
    """Character bigrams of a CJK run, plus its characters (unigrams catch one-character words and
    queries whose bigrams straddle a different word boundary than the text's)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + list(run)


_HIRAGANA = re.compile(f"[{HIRAGANA}]")
_KATAKANA = re.compile(f"[{KATAKANA}]")
_KANA = re.compile(f"[{KANA}]")
_KATAKANA_STRETCH = re.compile(f"[{KATAKANA}]{{2,}}")


def path_cjk_grams(run: str) -> list[str]:
    """A CJK run's terms in the path channel: its bigrams and characters, less the kana fragments that make a title
    seem to match a word it does not hold. No kana characters alone, no hiragana bigrams (particles, inflections), and
    a katakana stretch (a loanword, written as one: ワンタイム) as its trigrams, the whole stretch when shorter, instead
    of its bigrams, which are fragments of it (ワンタイム shares ンタ and タイ with キンタイ)."""
    if len(run) == 1:
        return [run]
    grams = [
        run[i : i + 2]
        for i in range(len(run) - 1)
        if not (_HIRAGANA.fullmatch(run[i]) and _HIRAGANA.fullmatch(run[i + 1]))
        and not (_is_katakana(run[i]) and _is_katakana(run[i + 1]))
    ]
    grams.extend(char for char in run if not _is_kana(char))
    for stretch in _KATAKANA_STRETCH.findall(run):
        grams.extend([stretch] if len(stretch) <= 3 else (stretch[i : i + 3] for i in range(len(stretch) - 2)))
    return grams


def _is_katakana(char: str) -> bool:
    return _KATAKANA.fullmatch(char) is not None


def _is_kana(char: str) -> bool:
    return _KANA.fullmatch(char) is not None


def _word_terms(word: str) -> list[str]:
    if word in ENGLISH_STOP_WORDS:
        return []
    return [stem(word) if word.isascii() and word.isalpha() else word]


def _content_terms_of_token(token: str) -> tuple[str, ...]:
    kind = _kind(token)
    if kind == "word":
        return tuple(_word_terms(token))
    if kind == "cjk":
        return tuple(cjk_grams(token))
    terms = [token]
    for part in _PARTS.findall(token):
        terms.extend(_word_terms(part))
    return tuple(terms)


def _raw_terms_of_token(token: str) -> tuple[str, ...]:
    kind = _kind(token)
    if kind == "cjk":
        return tuple(cjk_grams(token))
    if kind == "word" and not any(ch.isdigit() for ch in token):
        return () if token in ENGLISH_STOP_WORDS else (token,)
    terms = [token]
    collapsed = "".join(_PARTS.findall(token))
    if collapsed != token:
        terms.append(collapsed)
    terms.extend(f"{TRIGRAM_PREFIX}{collapsed[i : i + 3]}" for i in range(len(collapsed) - 2))
    return tuple(terms)


def _tokens(piece: str) -> list[str]:
    """The tokens of a piece of normalised text without whitespace: CJK runs, and the tokens between them."""
    segments = _CJK_RUN.split(piece)
    if len(segments) == 1:
        return _TOKEN_TEXT.findall(piece)
    tokens: list[str] = []
    for number, segment in enumerate(segments):
        if number % 2:
            tokens.append(segment)
        elif segment:
            tokens.extend(_TOKEN_TEXT.findall(segment))
    return tokens


def _kind(token: str) -> str | None:
    if _CJK_RUN.match(token):
        return "cjk"
    # The pattern has no anchors or lookarounds, so a token matched inside a text matches the same
    # alternative on its own.
    match = _TOKEN.match(token)
    if match is None or match.end() != len(token):
        raise AssertionError(f"{token!r} is not a token")
    return match.lastgroup


class _TokenTerms(dict[str, tuple[str, ...]]):
    """Terms per distinct token, computed on first sight: a text's terms are then dictionary look-ups."""

    # A table of unique numbers makes every token new: 500,000 entries in each of the four caches held 100+ MB of
    # a large CSV's ingest for nothing (the embedded index keeps each piece's term ids itself).
    LIMIT = 100_000

    def __init__(self, compute: Callable[[str], tuple[str, ...]]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, token: str) -> tuple[str, ...]:
        return self.remember(token, self._compute(token))

    def remember(self, token: str, terms: tuple[str, ...]) -> tuple[str, ...]:
        if len(self) >= self.LIMIT:
            self.clear()
        self[token] = terms
        return terms


_CONTENT_TERMS = _TokenTerms(_content_terms_of_token)
_RAW_TERMS = _TokenTerms(_raw_terms_of_token)


# No token holds whitespace and none can look past it, so a text's tokens are the tokens of its
# whitespace-separated pieces in order, and a piece's terms are cached like a token's.
def _content_terms_of_piece(piece: str) -> tuple[str, ...]:
    if _is_plain_word(piece):
        return () if piece in ENGLISH_STOP_WORDS else (stem(piece),)
    return tuple(chain.from_iterable(map(_CONTENT_TERMS.__getitem__, _tokens(piece))))


def _raw_terms_of_piece(piece: str) -> tuple[str, ...]:
    if _is_plain_word(piece):
        return () if piece in ENGLISH_STOP_WORDS else (piece,)
    return tuple(chain.from_iterable(map(_RAW_TERMS.__getitem__, _tokens(piece))))


def _is_plain_word(piece: str) -> bool:
    """One plain ASCII word, a token of its own (as _tokens and _kind would find)."""
    return piece.isascii() and piece.isalpha()


_PIECE_CONTENT_TERMS = _TokenTerms(_content_terms_of_piece)
_PIECE_RAW_TERMS = _TokenTerms(_raw_terms_of_piece)


def piece_content_terms(piece: str) -> tuple[str, ...]:
    """`analyze` of a piece of normalised text without whitespace, from the same cache."""
    return _PIECE_CONTENT_TERMS[piece]


def pieces_content_terms(pieces: Iterable[str]) -> Iterator[str]:
    """`analyze` of normalised text already split at whitespace, from the same cache."""
    return chain.from_iterable(map(_PIECE_CONTENT_TERMS.__getitem__, pieces))


def piece_terms(piece: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Content and raw terms of a piece of normalised text without whitespace. The content terms are cached for
    `analyze` too: the embedded index analyzes its texts piece by piece, and queries then analyze some again."""
    content: tuple[str, ...]
    raw: tuple[str, ...]
    if _is_plain_word(piece):
        content, raw = _content_terms_of_piece(piece), _raw_terms_of_piece(piece)
    else:
        tokens = _tokens(piece)
        content = tuple(chain.from_iterable(map(_CONTENT_TERMS.__getitem__, tokens)))
        raw = tuple(chain.from_iterable(map(_RAW_TERMS.__getitem__, tokens)))
    return _PIECE_CONTENT_TERMS.remember(piece, content), raw


_SENTENCE_ENDERS = ".!?。"  # after NFKC the full-width ！？． are ASCII; 。 stays
_SENTENCE_END = re.compile(r"[.!?]\s")


@lru_cache(maxsize=1024)
def text_terms(text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """`analyze(text)`, and where its sentences end: after each whitespace piece ending in . ! ? or 。, how many of the
    terms come before that point (a space is put after each 。,
    since Chinese and Japanese write none; 。 is no part of a token, so the terms are the same). Kept for the texts
    searched last: query feedback, the passage vote and the sibling order read the same first results, and popular
    chunks come back."""
    normalized = normalize(text)
    if "。" in normalized:
        return _piece_by_piece(normalized.replace("。", "。 ").split())
    # Sentence by sentence: a third faster on English prose than testing every piece's last character.
    terms: list[str] = []
    ends = []
    start = 0
    for end in _SENTENCE_END.finditer(normalized):
        terms.extend(chain.from_iterable(map(_PIECE_CONTENT_TERMS.__getitem__, normalized[start : end.end()].split())))
        ends.append(len(terms))
        start = end.end()
    rest = normalized[start:]
    terms.extend(chain.from_iterable(map(_PIECE_CONTENT_TERMS.__getitem__, rest.split())))
    if rest and rest[-1] in _SENTENCE_ENDERS:
        ends.append(len(terms))
    return tuple(terms), tuple(ends)


def _piece_by_piece(pieces: list[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """`text_terms` where sentences are mostly one piece each (Chinese and Japanese)."""
    per_piece = tuple(map(_PIECE_CONTENT_TERMS.__getitem__, pieces))
    before = tuple(accumulate(map(len, per_piece)))
    ends = compress(count(), map(_SENTENCE_ENDERS.__contains__, map(itemgetter(-1), pieces)))
    return tuple(chain.from_iterable(per_piece)), tuple(before[at] for at in ends)


def analyze(text: str) -> list[str]:
    """Terms for the `content` and `path` channels."""
    return list(chain.from_iterable(map(_PIECE_CONTENT_TERMS.__getitem__, normalize(text).split())))


def analyzed_terms(text: str) -> Iterator[str]:
    """`analyze` as an iterator, for counting a text's terms without a list of them."""
    return chain.from_iterable(map(_PIECE_CONTENT_TERMS.__getitem__, normalize(text).split()))


def raw_terms(text: str) -> list[str]:
    """Terms for the `term` channel: surface forms without stemming (stop words left out), and for
    identifiers, e-mail addresses and words with digits also the form without joiners plus its
    character trigrams, so `TX100`, `tx-100` and `TX 100` meet."""
    return list(chain.from_iterable(map(_PIECE_RAW_TERMS.__getitem__, normalize(text).split())))


def content_and_raw_terms(text: str) -> tuple[list[str], list[str]]:
    """`analyze(text)` and `raw_terms(text)` from one normalisation."""
    pieces = normalize(text).split()
    return (
        list(chain.from_iterable(map(_PIECE_CONTENT_TERMS.__getitem__, pieces))),
        list(chain.from_iterable(map(_PIECE_RAW_TERMS.__getitem__, pieces))),
    )


def path_text(source_file_name: str, section_path: tuple[str, ...]) -> str:
    return " ".join([_spaced_name(source_file_name), *section_path])


def _spaced_name(source_file_name: str) -> str:
    stem_name = source_file_name.rsplit(".", 1)[0]
    return re.sub(r"(?<=[a-z])(?=[A-Z])|[_.\-]+", " ", stem_name)


@lru_cache(maxsize=65_536)
def path_terms(source_file_name: str, section_path: tuple[str, ...]) -> tuple[str, ...]:
    """The path channel's terms of a file name and section path (cached: a document's chunks share a few).
    `path_text` joins its parts with spaces, which normalisation joins to no neighbour, so its terms are its parts'
    in turn; each part is analyzed once, as a document's section paths share their leading titles."""
    parts = map(_part_path_terms, [_spaced_name(source_file_name), *section_path])
    return tuple(chain.from_iterable(parts))


@lru_cache(maxsize=65_536)
def _part_path_terms(part: str) -> tuple[str, ...]:
    return tuple(analyze_path(part))


def analyze_path(text: str) -> list[str]:
    """Terms for the `path` channel, of a title or a query: `analyze`'s, CJK runs as `path_cjk_grams`."""
    terms: list[str] = []
    for piece in normalize(text).split():
        for token in _tokens(piece):
            terms.extend(path_cjk_grams(token) if _CJK_RUN.fullmatch(token) else _CONTENT_TERMS[token])
    return terms


def is_trigram(term: str) -> bool:
    return term.startswith(TRIGRAM_PREFIX)


def bounded_trigrams(raw: list[str], limit: int = MAX_CHUNK_TRIGRAMS) -> list[str]:
    """A chunk's raw terms with only its first `limit` distinct trigrams (every occurrence of those kept)."""
    kept: set[str] = set()
    bounded = []
    for term in raw:
        if is_trigram(term) and term not in kept:
            if len(kept) >= limit:
                continue
            kept.add(term)
        bounded.append(term)
    return bounded


def channel_terms(chunk: Chunk) -> dict[Channel, list[str]]:
    """A chunk's terms per channel, as indexed (the embedded index gets the same terms as ids from its TermTable)."""
    content, raw = content_and_raw_terms(chunk.text)
    path = list(path_terms(chunk.source_file_name, chunk.section_path))
    return {"content": content, "path": path, "term": bounded_trigrams(raw)}
