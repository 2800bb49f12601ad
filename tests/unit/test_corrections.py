from __future__ import annotations

import random

import pytest

from docshelf.edit_distance import edit_distance
from docshelf.search.corrections import closest, correctable, corrections, max_edits


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("parliment", "parliament", 1),  # insertion
        ("septicemia", "septicem", 2),  # two deletions
        ("recieve", "receive", 1),  # adjacent swap counts one
        ("kitten", "sitting", 3),
        ("abc", "abc", 0),
        ("", "ab", 2),
    ],
)
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b, 5) == distance
    assert edit_distance(b, a, 5) == distance


def test_edit_distance_stops_past_the_limit() -> None:
    assert edit_distance("kitten", "sitting", 2) == 3
    assert edit_distance("a", "abcdef", 2) == 3


def test_what_is_corrected_and_how_far() -> None:
    assert correctable("parliment") and correctable("maizière") and correctable("κόσμος")
    assert not any(correctable(term) for term in ("tx-100", "abc", "2019", "東京都"))
    assert [max_edits(term) for term in ("seal", "gears", "gasket")] == [1, 1, 2]


def test_the_closest_then_the_commonest_then_the_first_in_order_wins() -> None:
    assert closest("parliment", [("apartment", 50)]) is None  # another first letter
    assert closest("parliment", [("parliament", 3), ("parlement", 9)]) == "parlement"  # both one edit: more chunks
    assert closest("gasket", [("gaskets", 2), ("basket", 90)]) == "gaskets"  # the first letter is kept
    assert closest("seals", [("steals", 4), ("sells", 4)]) == "sells"  # tie: alphabetical
    assert closest("seal", [("steel", 40)]) is None  # two edits are too many for four letters
    assert closest("seal", [("seal", 5)]) is None  # a term is never its own correction


def test_corrections_name_each_correctable_term_with_a_candidate() -> None:
    candidates = {"parliment": [("parliament", 2)], "victorya": [("victoria", 5)], "東京": [("東都", 1)]}
    found = corrections(["parliment", "victorya", "parliment", "東京", "zzzz"], candidates)
    assert found == {"parliment": "parliament", "victorya": "victoria"}


def reference_distance(a: str, b: str) -> int:
    """Optimal string alignment distance, the whole table, no shortcuts."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[-1][-1]


def test_the_shortcuts_never_change_a_distance_within_the_limit() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        a = "".join(rng.choices("abcd", k=rng.randint(0, 7)))
        b = "".join(rng.choices("abcd", k=rng.randint(0, 7)))
        limit = rng.randint(1, 3)
        expected = reference_distance(a, b)
        assert edit_distance(a, b, limit) == (expected if expected <= limit else limit + 1), (a, b, limit)


def test_words_of_the_language_are_not_misspelt_and_corrections_name_the_words_typed() -> None:
    from docshelf.search.corrections import misspelt, typed_words

    typed = typed_words("Annual LEAVE for recent hires, parliment gaskets?")
    assert typed["leav"] == "leave" and typed["hire"] == "hires" and typed["parliment"] == "parliment"
    terms = ["annual", "leav", "recent", "hire", "parliment", "gasket"]
    assert misspelt(terms, typed) == ["parliment"]
