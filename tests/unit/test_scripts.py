"""The character classes of docshelf.scripts, and the places that were given them in place of their own ranges
(markdown and HTML line joins, the semantic channel's gate, section summaries)."""

from __future__ import annotations

import re

import pytest

from docshelf.index.analyzer import analyze
from docshelf.model import Document, Heading, Page, Paragraph, Source
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.html import parse as parse_html
from docshelf.parsers.markup.markdown import parse as parse_markdown
from docshelf.scripts import CJK_LETTERS, HAN, KANA, NO_SPACE, no_space_script
from docshelf.search.ranking import RankingSettings
from docshelf.search.semantic import semantic_query
from docshelf.section_summaries import section_summaries

BOPOMOFO_TEXT = "ㄅㄆㄇ"  # U+3105-3107
SMALL_KATAKANA = "ㇰㇱ"  # U+31F0-31F1, katakana phonetic extensions
HAN_EXTENSION_B = "𠀋𠀌𠀍"  # U+2000B-2000D


@pytest.mark.parametrize("char", ["日", "の", "カ", "。", "「", "Ａ", "ｶ", "ㄅ", "ㇰ", "⺀"])
def test_scripts_written_without_spaces(char: str) -> None:
    assert no_space_script(char)


@pytest.mark.parametrize("char", ["a", "é", "1", " ", "가", "ק", "—"])
def test_scripts_written_with_spaces(char: str) -> None:
    assert not no_space_script(char)


def test_cjk_letters_hold_every_han_and_kana_and_hangul_but_no_punctuation() -> None:
    letters = re.compile(f"[{CJK_LETTERS}]")
    assert all(letters.match(char) for char in "日本語のカタカナ한국어ㄅ" + HAN_EXTENSION_B + SMALL_KATAKANA)
    assert not any(letters.match(char) for char in "。、「Ａa1")
    assert re.fullmatch(f"[{HAN}]+", "漢字") and re.fullmatch(f"[{KANA}]+", "ひらがなカタカナ")
    assert re.match(f"[{NO_SPACE}]", HAN_EXTENSION_B) is None  # rare Han splits as before (not measured)


def test_the_analyzer_cuts_every_cjk_letter_into_bigrams() -> None:
    assert analyze(HAN_EXTENSION_B) == ["𠀋𠀌", "𠀌𠀍", "𠀋", "𠀌", "𠀍"]
    assert analyze("ㄅㄆ한국") == ["ㄅㄆ", "ㄆ한", "한국", "ㄅ", "ㄆ", "한", "국"]


def _markdown(text: str) -> list[object]:
    return list(parse_markdown(text.encode(), filename="t.md", limits=ParseLimits()).blocks)


def _html(markup: str) -> list[object]:
    return list(parse_html(markup.encode(), filename="t.html", limits=ParseLimits()).blocks)


@pytest.mark.parametrize("first, second", [(BOPOMOFO_TEXT, "注音"), ("日本", SMALL_KATAKANA)])
def test_markdown_and_html_join_lines_of_every_no_space_script(first: str, second: str) -> None:
    """Before scripts.py the markup parsers' range lacked U+3100-31FF, which the PDF parser's had."""
    assert _markdown(f"{first}\n{second}\n") == [Paragraph(text=first + second, page=1)]
    assert _html(f"<p>{first}\n{second}</p>") == [Paragraph(text=first + second, page=1)]


class _NoVectors:
    def vector_model(self, namespace: str) -> None:
        self.asked = namespace


class _Embedder:
    model = None

    def embed_query(self, text: str) -> list[float]:
        raise AssertionError("not reached")


@pytest.mark.parametrize("query", ["汽车", "한국어", BOPOMOFO_TEXT, HAN_EXTENSION_B])
def test_the_semantic_channel_skips_every_cjk_letter_unless_asked(query: str) -> None:
    index = _NoVectors()
    off = RankingSettings(semantic_cjk=False)
    assert semantic_query(index, "ns", f"{query} car", _Embedder(), off, 10) is None  # type: ignore[arg-type]
    assert not hasattr(index, "asked")
    semantic_query(index, "ns", f"{query} car", _Embedder(), RankingSettings(semantic_cjk=True), 10)  # type: ignore[arg-type]
    assert index.asked == "ns"


def test_section_summaries_show_rare_han_as_pairs_like_any_han() -> None:
    source = Source("file:///t.md", "t.md", "text/markdown", 1, "0" * 64)
    blocks = (
        Heading("A", 1, 1),
        Paragraph(f"{HAN_EXTENSION_B * 2}。保修期保修期", 1),
        Heading("B", 1, 1),
        Paragraph("其他的内容", 1),
    )
    summary = section_summaries(Document(source, "T", (Page(1, blocks),), "test"))[("A",)]
    terms = summary.split(" — ")[1].split(", ")
    assert "𠀋𠀌" in terms and "保修" in terms
    assert HAN_EXTENSION_B * 2 not in terms  # once the whole run, as if it were a word
