"""The chunker's token count of blank-line joins from the parts' counts: exact whenever it answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.chunking.joined_tokens import BLANK_LINE, joined_count
from docshelf.tokens import count_tokens

# Letters and digits of several scripts, ASCII and CJK punctuation, symbols, spaces of every kind, controls,
# combining marks and contraction-like apostrophes: the characters whose pre-token rules differ.
EDGE_CHARACTERS = [
    *"aZé漢字かナ한0٣½.,;:!?)(\"'-_/#%&*+<=>@[]^`{|}~。、！？「」・…—€©",
    " ", "  ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u200b", "\u0301", "\x00", "'s", "'ll", "\n\n",
]  # fmt: skip
parts = st.lists(st.sampled_from(EDGE_CHARACTERS), min_size=0, max_size=12).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.lists(parts, min_size=1, max_size=5))
def test_a_join_it_counts_is_counted_exactly(texts: list[str]) -> None:
    counted = joined_count(texts, [count_tokens(text) for text in texts], ["", *[BLANK_LINE] * (len(texts) - 1)])
    if counted is not None:
        assert counted == count_tokens(BLANK_LINE.join(texts)), texts


def test_prose_paragraphs_are_counted_without_encoding_the_join() -> None:
    paragraphs = [
        "Bovine coronavirus belongs to the Nidovirales order (1, 2).",
        "The strain was obtained from a fecal sample",
        "保修期为两年。",
        "第1条（目的）この規則は、従業員の就業に関する事項を定める。",
        "See Table 2: 79.4 78.8 75.0",
        "Quoted speech ends here.”",
    ]
    counts = [count_tokens(text) for text in paragraphs]
    assert joined_count(paragraphs, counts, ["", *[BLANK_LINE] * 5]) == count_tokens(BLANK_LINE.join(paragraphs))


def test_joins_it_cannot_decide_are_left_to_the_caller() -> None:
    assert joined_count(["trailing space ", "next"], [3, 1], ["", BLANK_LINE]) is None
    assert joined_count(["word", " leading space"], [1, 2], ["", BLANK_LINE]) is None
    assert joined_count(["one part", "glued on"], [2, 2], ["", ""]) is None
    assert joined_count(["only"], [1], [""]) == 1
