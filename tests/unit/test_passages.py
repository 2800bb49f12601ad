from __future__ import annotations

from docshelf.model import Chunk
from docshelf.search.passages import best_passage_score, sentence_terms, siblings_by_passage
from docshelf.tokens import count_tokens


def chunk(chunk_id: str, document_id: str, text: str) -> Chunk:
    return Chunk(
        chunk_id=chunk_id, document_id=document_id, namespace="ns", type="text", text=text, section_path=(),
        pages=(1,), token_count=count_tokens(text), ordinal=0, source_file_name=f"{document_id}.md",
    )  # fmt: skip


def test_sentences_end_at_western_and_cjk_enders() -> None:
    text = "The pump leaks. Replace the seal! 泵在漏水。更换密封件。"
    assert sentence_terms(text, {"pump", "seal", "密封"}) == [["pump"], ["seal"], [], ["密封"], []]


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
