from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from docshelf.index.embedded import piece_keys
from docshelf.index.embedded.bm25 import IntArray
from docshelf.index.embedded.piece_keys import UNICODE_SPACES, PieceKeys, U64Array, piece_bounds, piece_ids


def test_the_unicode_spaces_are_every_non_ascii_character_str_split_separates_on() -> None:
    spaces = "".join(chr(code) for code in range(128, sys.maxunicode + 1) if chr(code).isspace())
    assert spaces == UNICODE_SPACES
    assert all(f"a{space}b".split() == ["a", "b"] for space in UNICODE_SPACES)


@pytest.mark.parametrize("text", [" \t a\x1cb\x1f\x0b cde\r\n\x0c f\x00g é \x7f", "", " ", "a", "ab cd", " x\ny "])
def test_piece_bounds_split_like_str_split_on_ascii_whitespace(text: str) -> None:
    data = text.encode()
    starts, ends = piece_bounds(data)
    pieces = [data[start:end].decode() for start, end in zip(starts.tolist(), ends.tolist(), strict=True)]
    assert pieces == text.split()


def _texts(seed: int) -> list[str]:
    """Pieces of every length around the 15-byte key limit, non-ASCII, NUL, lone surrogates and repeats."""
    rng = random.Random(seed)
    alphabet = ["a", "b", "z", "0", "-", ".", "\x00", "é", "ß", "阀", "门", "😀", "\ud83d", "\u0301"]
    texts = []
    for _ in range(40):
        pieces = ["".join(rng.choices(alphabet[: rng.randint(3, len(alphabet))], k=rng.randint(1, 20)))]
        pieces += [
            "the",
            "valve",
            "valves",
            "abcdefghijklmn",
            "abcdefghijklmno",
            "abcdefghijklmnox",
            "abcdefghijklmnoy",
        ]
        pieces += ["abcdefgh", "abcdefgh\x00", "abcdefgh\x00\x00", "ab\x00", "ab"]  # zero bytes are not padding
        pieces += ["".join(rng.choices(alphabet, k=rng.randint(1, 18))) for _ in range(30)]
        rng.shuffle(pieces)
        texts.append(rng.choice([" ", "  ", "\n", "\t "]).join(pieces))
    return texts


def _check(keys: PieceKeys, texts: list[str], known: dict[str, int]) -> None:
    def look_up(pieces: list[str]) -> IntArray:
        return np.array([known.setdefault(piece, len(known)) for piece in pieces], dtype=np.int64)

    first_seen = dict.fromkeys(known)
    for text in texts:
        found = piece_ids(keys, text, look_up)
        assert found.tolist() == [known[piece] for piece in text.split()]
        first_seen.update(dict.fromkeys(text.split()))
        assert list(known) == list(first_seen)  # new pieces are looked up in the order they appear


def test_piece_ids_are_the_look_up_of_each_piece_across_batches() -> None:
    keys, known = PieceKeys(), {}  # type: ignore[var-annotated]
    _check(keys, _texts(1), known)
    _check(keys, _texts(1) + _texts(2), known)  # from the table, and new pieces beside known ones
    assert 0 < len(keys) < len(known)  # long pieces are never keyed


def test_the_table_grows_past_its_first_capacity() -> None:
    keys, known = PieceKeys(), {}  # type: ignore[var-annotated]
    words = [f"w{number}" for number in range(20_000)]
    _check(keys, [" ".join(words[:3_000]), " ".join(words)], known)
    _check(keys, [" ".join(reversed(words))], known)
    assert len(keys) == len(words)


def test_keys_whose_mixes_clash_are_still_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    def clashing(first: U64Array, second: U64Array) -> U64Array:
        return (first ^ second) & np.uint64(3)

    monkeypatch.setattr(piece_keys, "mixed", clashing)
    keys, known = PieceKeys(), {}  # type: ignore[var-annotated]
    _check(keys, _texts(3), known)
    _check(keys, _texts(3) + _texts(4), known)


def test_text_with_a_unicode_space_is_split_by_python() -> None:
    keys, known = PieceKeys(), {}  # type: ignore[var-annotated]
    _check(keys, ["a\u3000b c\xa0d", "a b\u2028c"], known)
    assert len(keys) == 0
