from __future__ import annotations

from docshelf.agentic.excerpt import best_excerpt, sentences_of
from docshelf.agentic.steps import query_terms_of
from docshelf.tokens import count_tokens

TEXT = (
    "The valve family was introduced in 2019. It is built in Ohio. "
    + "Filler sentence about packaging and shipping. " * 30
    + "The TX-200 valve has a warranty of five years. Claims go through the dealer. "
    + "More filler about pallets and cartons. " * 30
)


def test_the_excerpt_holds_the_best_sentence_and_its_neighbours_within_the_tokens() -> None:
    terms = query_terms_of("what is the warranty of the TX-200 valve?")
    excerpt = best_excerpt(TEXT, terms, 60)
    assert "warranty of five years" in excerpt and "Claims go through the dealer" in excerpt
    assert count_tokens(excerpt) <= 60
    assert "introduced in 2019" not in excerpt  # the head of the chunk is not what a cut keeps


def test_an_excerpt_of_chinese_text_and_of_too_few_tokens() -> None:
    text = "这是第一句。保修期为五年，由经销商办理。最后一句关于运输。"
    assert sentences_of(text)[1] == "保修期为五年，由经销商办理。"
    assert "保修期为五年" in best_excerpt(text, query_terms_of("保修期是多少"), 40)
    assert best_excerpt(TEXT, query_terms_of("warranty"), 0) == ""
    assert 0 < count_tokens(best_excerpt(TEXT, query_terms_of("warranty"), 3)) <= 3
