from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.index.analyzer import analyze, normalize
from docshelf.model import Chunk
from docshelf.search.passages import (
    WINDOW_SENTENCES,
    best_window_score,
    sentence_terms,
    sibling_weights,
    siblings_by_passage,
)
from docshelf.tokens import count_tokens


def chunk(chunk_id: str, document_id: str, text: str) -> Chunk:
    return Chunk(
        chunk_id=chunk_id, document_id=document_id, namespace="ns", type="text", text=text, section_path=(),
        pages=(1,), token_count=count_tokens(text), ordinal=0, source_file_name=f"{document_id}.md",
    )  # fmt: skip


def best_passage_score(text: str, weights: dict[str, float], window: int = WINDOW_SENTENCES) -> float:
    return best_window_score(sentence_terms(text, weights), weights, window)


def test_sentences_end_at_western_and_cjk_enders() -> None:
    text = "The pump leaks. Replace the seal! 泵在漏水。更换密封件。"
    assert sentence_terms(text, {"pump", "seal", "密封"}) == [["pump"], ["seal"], [], ["密封"], []]


def _sentence_terms_word_by_word(text: str, wanted: set[str]) -> list[list[str]]:
    sentences: list[list[str]] = [[]]
    for piece in normalize(text).replace("。", "。 ").split():
        sentences[-1] += [term for term in analyze(piece) if term in wanted]
        if piece[-1] in ".!?。":
            sentences.append([])
    return sentences


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(["pump", "pumps", "seal", "the", "leak.", "Seal!", "密封件。", "泵", "x?", " ", "\n"]),
        max_size=30,
    ),
    st.sets(st.sampled_from(["pump", "seal", "leak", "密封", "泵", "x"])),
)
def test_sentence_terms_are_the_wanted_terms_of_each_sentence_in_reading_order(
    words: list[str], wanted: set[str]
) -> None:
    text = " ".join(words)
    assert sentence_terms(text, wanted) == _sentence_terms_word_by_word(text, wanted)


def test_best_window_counts_terms_of_consecutive_sentences_only() -> None:
    weights = {"pump": 1.0, "seal": 1.0}
    near = "The pump seal failed. Filler text here. More filler. Still more."
    far = "The pump failed. Filler text here. More filler. The seal was new."
    assert best_passage_score(near, weights) > best_passage_score(far, weights, window=3)
    assert best_passage_score(far, weights, window=4) == best_passage_score(near, weights, window=4)


def test_siblings_trade_places_and_other_documents_keep_theirs() -> None:
    chunks = {
        "a1": chunk("a1", "A", "Pump overview. The pump is blue. Pumps everywhere, pump pump."),
        "b1": chunk("b1", "B", "Unrelated pump text."),
        "a2": chunk("a2", "A", "Intro. The pump seal is replaced yearly. End."),
    }
    ranked = [("a1", 10.0), ("b1", 9.0), ("a2", 9.5)]
    reordered = siblings_by_passage(ranked, chunks, {"pump": 1.0, "seal": 3.0})
    assert [chunk_id for chunk_id, _ in reordered] == ["a2", "b1", "a1"]


def test_terms_every_sibling_holds_weigh_little_in_the_passage_order() -> None:
    # The opening chunk repeats the document's subject; the answer sits where the rarer term is.
    opening = "Kelvar is a city. Kelvar grew fast. Kelvar is large. Kelvar has a port."
    answer = "Ribault explored the river. Ribault claimed the land near Kelvar for France."
    chunks = {"a1": chunk("a1", "A", opening), "a2": chunk("a2", "A", answer)}
    weights = {"kelvar": 6.0, "ribault": 2.0, "claim": 1.0}
    ranked = [("a1", 10.0), ("a2", 9.0)]
    assert best_passage_score(opening, weights) > best_passage_score(answer, weights)  # the index's idf alone
    assert sibling_weights(weights, [{"kelvar"}, {"kelvar", "ribault", "claim"}]) == pytest.approx(
        {"kelvar": 6.0 * math.log(1.2), "ribault": 2.0 * math.log(2.0), "claim": math.log(2.0)}
    )
    assert [chunk_id for chunk_id, _ in siblings_by_passage(ranked, chunks, weights)] == ["a2", "a1"]
