from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.markup.markdown import parse
from docshelf.tables import table_grid
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import corpus_files, parse_corpus_file


def blocks_of(text: str | bytes) -> list[object]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(parse(data, filename="t.md", limits=ParseLimits()).blocks)


def test_headings_paragraphs_and_inline_markup() -> None:
    blocks = blocks_of(
        "# Title\n\nSome **bold** and *italic* [link](http://x.y) `code|x`\ncontinued.\n\n"
        "Setext\n======\n\nSub\n---\n\n<!-- hidden\ncomment -->\n\n### Closed ###\n"
    )
    assert blocks == [
        Heading(text="Title", level=1, page=1),
        Paragraph(text="Some bold and italic link code|x continued.", page=1),
        Heading(text="Setext", level=1, page=1),
        Heading(text="Sub", level=2, page=1),
        Heading(text="Closed", level=3, page=1),
    ]


def test_lists_with_levels_and_code_blocks() -> None:
    blocks = blocks_of(
        "- a\n  - b\n    more b\n- c\n\n1. one\n2. two\n\nafter\n\n```python\nx = 1\n\ny = 2\n```\n\n    indented\n"
    )
    assert blocks == [
        Paragraph(text="a", page=1, list_level=0),
        Paragraph(text="b more b", page=1, list_level=1),
        Paragraph(text="c", page=1, list_level=0),
        Paragraph(text="1. one", page=1, list_level=0),
        Paragraph(text="2. two", page=1, list_level=0),
        Paragraph(text="after", page=1),
        Paragraph(text="x = 1\n\ny = 2", page=1, code=True),
        Paragraph(text="indented", page=1, code=True),
    ]


def test_pipe_table_and_inline_html_table() -> None:
    blocks = blocks_of(
        "| Name | Value |\n|:-----|------:|\n| a \\| b | `1|2` |\n| c |\n\n"
        '<table>\n<tr><th>H</th><th>I</th></tr>\n<tr><td colspan="2">wide</td></tr>\n</table>\n'
    )
    first, second = blocks
    assert isinstance(first, Table) and isinstance(second, Table)
    assert table_grid(first) == [["Name", "Value"], ["a | b", "1|2"], ["c", ""]]
    assert first.header_rows == 1
    assert table_grid(second) == [["H", "I"], ["wide", "wide"]]
    assert second.cells[-1].colspan == 2


def test_front_matter_gives_title_and_images_become_blocks() -> None:
    content = parse(
        b"---\ntitle: My Doc\ntags: [a]\n---\n![A diagram](img/d.png)\n\nText\n", filename="t.md", limits=ParseLimits()
    )
    assert content.title == "My Doc"
    assert content.blocks == [
        Image(page=1, alt_text="A diagram", asset_ref="img/d.png"),
        Paragraph(text="Text", page=1),
    ]


def test_cjk_lines_join_without_space_and_latin1_decodes() -> None:
    assert blocks_of("日本語の\n文章です。\n") == [Paragraph(text="日本語の文章です。", page=1)]
    assert blocks_of("## können\n\näöüß\n".encode("latin-1")) == [
        Heading(text="können", level=2, page=1),
        Paragraph(text="äöüß", page=1),
    ]


def test_blockquote_is_parsed_inside() -> None:
    assert blocks_of("> # Quoted\n> text\n") == [
        Heading(text="Quoted", level=1, page=1),
        Paragraph(text="text", page=1),
    ]


@pytest.mark.corpus
def test_corpus_markdown_files_parse(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir, "md")
    assert files
    for relative in files:
        document = parse_corpus_file(corpus_dir, relative)
        assert document.outline(), relative
    umlauts = parse_corpus_file(corpus_dir, "md/umlauts-non-utf8.md")
    assert "äöüß" in measures.document_text(umlauts)
    qwen = parse_corpus_file(corpus_dir, "md/browser_qwen_cn.md")
    assert "<!--" not in measures.document_text(qwen)
    jlreq = parse_corpus_file(corpus_dir, "md/jlreq-README-ja.md")
    assert any(block.kind == "paragraph" and block.code for block in jlreq.blocks())


@pytest.mark.corpus
@pytest.mark.parametrize("relative", ["md/wiki.md", "md/mixed.md"])
def test_corpus_markdown_against_groundtruth(corpus_dir: Path, relative: str) -> None:
    document = parse_corpus_file(corpus_dir, relative)
    reference = measures.groundtruth_markdown(corpus_dir, relative)
    text = measures.text_recall(measures.markdown_plain_text(reference), measures.document_text(document))
    headings = measures.heading_recall(measures.markdown_headings(reference), measures.document_headings(document))
    cells = measures.cell_f1(measures.markdown_table_cells(reference), measures.document_table_cells(document))
    print(f"{relative}: text recall {text:.3f}, heading recall {headings:.3f}, table cell F1 {cells:.3f}")
    assert text >= 0.95
    assert headings >= 0.8
    assert cells >= 0.9


def test_deeply_nested_quotes_do_not_recurse_without_bound() -> None:
    (block,) = blocks_of(">" * 5000 + " quoted\n")
    assert isinstance(block, Paragraph) and block.text.endswith("quoted")


def test_reference_links_render_their_text_only_when_defined() -> None:
    source = (
        b"See [the spec][Spec], [undefined][nowhere] and [1].\n\n> quoted [ref][spec]\n\n[spec]: https://spec.example\n"
    )
    blocks = parse(source, filename="r.md", limits=ParseLimits()).blocks
    assert [block.text for block in blocks if isinstance(block, Paragraph)] == [
        "See the spec, [undefined][nowhere] and [1].",
        "quoted ref",
    ]


def test_footnotes_follow_the_block_citing_them() -> None:
    source = (
        "# Rollback\n\nThe window is 30 minutes.[^1] See [the guide][guide].\n\n[^note]: Defined before its use.\n\n"
        "| Step | Time |\n|---|---|\n| Drain[^note] | 5 min |\n\n## Later\n\nText.\n\n"
        "[^1]: Measured from the end\nof the rollout.\n\n    A second paragraph.\n\n"
        "[^spare]: Cited nowhere.\n\n[guide]: https://guide.example\n"
    )
    blocks = blocks_of(source)
    assert blocks[:3] == [
        Heading(text="Rollback", level=1, page=1),
        Paragraph(text="The window is 30 minutes.[^1] See the guide.", page=1),
        Paragraph(text="[^1]: Measured from the end of the rollout.\nA second paragraph.", page=1),
    ]
    table = blocks[3]
    assert isinstance(table, Table) and table_grid(table)[1] == ["Drain[^note]", "5 min"]
    assert blocks[4:] == [
        Paragraph(text="[^note]: Defined before its use.", page=1),
        Heading(text="Later", level=2, page=1),
        Paragraph(text="Text.", page=1),
        Paragraph(text="[^spare]: Cited nowhere.", page=1),
    ]


def test_inline_markup_edge_cases() -> None:
    source = b"a `co*de*` b\\*c *un closed **strong** ~~gone~~ x<br>y <img alt='pic' src='p.png'> &amp; <!-- c -->\n"
    content = parse(source, filename="e.md", limits=ParseLimits())
    assert content.blocks == [
        Paragraph(text="a co*de* b*c *un closed strong gone x\ny &", page=1),
        Image(page=1, alt_text="pic", asset_ref="p.png"),
    ]


# Text without any character an enabled inline rule acts on: prose, identifiers, CJK, every other punctuation.
PLAIN_CHARACTERS = [*"abc XYZ 123 .,;:-+=#$%@^{}|'\"()/?>\t\u00a0\u3000漢字かなｶﾅ\u200b é", "  "]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PLAIN_CHARACTERS), max_size=40).map("".join))
def test_plain_inline_text_skips_the_inline_parser_with_the_same_result(text: str) -> None:
    from docshelf.parsers.markup import markdown_inline

    assert markdown_inline.render_inline(text, page=1) == _rendered_by_markdown_it(text)


def _rendered_by_markdown_it(text: str) -> tuple[str, list[Image]]:
    """`render_inline` of `text` (no reference definitions) with every run through markdown-it."""
    from docshelf.parsers.markup import markdown_inline

    images: list[Image] = []
    parts: list[str] = []
    for token in markdown_inline._PARSER.parseInline(text, {"references": {}}):
        markdown_inline._render(token.children or [], 1, parts, images)
    return markdown_inline._plain_lines("".join(parts)), images


# Brackets and `!` among plain text: a link or image only with `](` (no reference definitions given).
BRACKETED_CHARACTERS = [*PLAIN_CHARACTERS, "[", "]", "!", "(", ")", "[12]", "](x)", "![", ": ", "<"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(BRACKETED_CHARACTERS), max_size=30).map("".join))
def test_bracketed_text_renders_as_markdown_it_renders_it(text: str) -> None:
    from docshelf.parsers.markup import markdown_inline

    assert markdown_inline.render_inline(text, page=1) == _rendered_by_markdown_it(text)


def test_a_bracketed_label_with_a_reference_definition_is_still_a_link() -> None:
    from docshelf.parsers.markup import markdown_inline

    references = markdown_inline.link_references(["spec"])
    assert markdown_inline.render_inline("see [the spec][spec] and [spec]", page=1, references=references)[0] == (
        "see the spec and spec"
    )
    assert markdown_inline.render_inline("see [spec] [1]", page=1)[0] == "see [spec] [1]"


def test_plain_inline_text_never_reaches_markdown_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from docshelf.parsers.markup import markdown_inline

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("markdown-it parsed a plain run")

    monkeypatch.setattr(markdown_inline._PARSER, "parseInline", refuse)
    assert markdown_inline.render_inline("Seals (TX-100) cost 45 %; see p. 3 - ok?", page=1)[0].startswith("Seals")
    assert markdown_inline.render_inline("as found [12], [3, 4]! (p. 5)", page=1)[0].startswith("as found [12]")
    with pytest.raises(AssertionError):
        markdown_inline.render_inline("an *emphasis*", page=1)


def _item_texts(text: str) -> list[str]:
    return [block.text for block in blocks_of(text) if isinstance(block, Paragraph) and block.list_level is not None]


def test_ordered_items_are_numbered_as_rendered_counting_on_from_the_lists_start() -> None:
    text = (
        "# Steps\n\n1. Build\n1. Push\n1. Roll out\n   1. sub a\n   1. sub b\n1. Verify\n\n"
        "Text between.\n\n3. Three\n\n3. Four\n\n- bullet\n\n1) paren\n1) paren two\n7. new list\n"
    )
    assert _item_texts(text) == [
        "1. Build", "2. Push", "3. Roll out", "1. sub a", "2. sub b", "4. Verify",
        "3. Three", "4. Four", "bullet", "1. paren", "2. paren two", "7. new list",
    ]  # fmt: skip
    assert _item_texts("1. a\n\n## Next\n\n1. b\n") == ["1. a", "1. b"]
