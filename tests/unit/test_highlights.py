"""Match offsets of a query in a result's text, by the index's analyzer (search/highlights.py)."""

from __future__ import annotations

from docshelf.index.analyzer import analyze
from docshelf.search.highlights import highlight_terms, highlights
from docshelf.search.table_cells import table_cells
from docshelf.tables import table_from_rows, table_to_markdown


def marked(query: str, text: str, corrections: dict[str, str] | None = None) -> list[str]:
    return [text[start:end] for start, end in highlights(highlight_terms(query, corrections), text)]


def test_english_words_match_by_their_stems_whatever_their_case() -> None:
    text = "Replacement of the stem seal: the SEALS are replaced yearly, not the sealant."
    assert marked("replacing seals", text) == ["Replacement", "seal", "SEALS", "replaced"]
    # each marked word is a match the index makes: its stem is one of the query's terms
    assert set(analyze("Replacement seal SEALS replaced")) <= set(analyze("replacing seals"))
    assert "sealant" not in marked("replacing seals", text)


def test_chinese_text_matches_by_the_query_bigrams() -> None:
    text = "新员工入职第一年享有十天带薪年假，之后每年增加一天。"
    assert marked("新员工有多少天年假？", text) == ["新员工", "年假"]


def test_a_lone_chinese_query_character_matches_that_character() -> None:
    assert marked("假", "带薪年假与病假") == ["假", "假"]


def test_identifiers_match_whole_or_by_their_parts() -> None:
    assert marked("tx100 valve", "The TX-100 is a ball valve.") == ["TX-100", "valve"]
    assert marked("M12 torque", "| M12 | 80 | crosswise |") == ["M12"]
    assert marked("100", "The TX-100 valve") == ["100"]


def test_offsets_index_the_stored_text_not_its_normalized_form() -> None:
    text = "ﬁle Ｆｉｌｅ FILE"  # a ligature and full-width letters, which NFKC rewrites
    assert marked("file", text) == ["ﬁle", "Ｆｉｌｅ", "FILE"]
    assert highlights(highlight_terms("𠀀𠀁"), "x 𠀀𠀁") == [[2, 4]]  # code points, astral characters count one


def test_corrected_terms_are_marked_too() -> None:
    assert marked("parliment", "The parliament met.", {"parliment": "parliament"}) == ["parliament"]


def test_no_match_gives_no_spans() -> None:
    assert highlights(highlight_terms("pump impeller"), "Lock out the motor before opening the casing.") == []
    assert highlights(highlight_terms("the of and"), "the end of the line and more") == []  # stop words never match


def test_a_table_chunk_gives_back_its_cells() -> None:
    table = table_from_rows([["Bolt size", "Torque"], ["M10", "45"], ["", "a|b"]], page=1, caption="Torques")
    cells = table_cells("Torques\n" + table_to_markdown(table))
    assert cells == {
        "caption": "Torques",
        "header_rows": 1,
        "rows": [["Bolt size", "Torque"], ["M10", "45"], ["", "a|b"]],
    }


def test_text_that_is_not_a_whole_table_gives_no_cells() -> None:
    assert table_cells("| a | b |\n|---|---|\n| 1 | 2 | 3 |") is None
    assert table_cells("| a | b |\n|---|---|\nthe rest of a cell cut into token windows") is None
    assert table_cells("plain words") is None


def test_the_evidence_token_count_is_the_texts() -> None:
    from docshelf.model import Chunk
    from docshelf.search.packing import pack_evidence
    from docshelf.tokens import count_tokens

    chunks = [
        Chunk(chunk_id=f"c{i}", document_id="d1", namespace="ns", type="text", text=f"Seal step {i}. " * 30,
              section_path=("Maintenance",), pages=(i,), token_count=count_tokens(f"Seal step {i}. " * 30),
              ordinal=i, source_file_name="manual.pdf")
        for i in range(1, 6)
    ]  # fmt: skip
    for budget in (40, 300, 5000):  # passages of the first chunk, some chunks, every chunk
        packed = pack_evidence(chunks, {"seal": 1.0}, budget)
        assert packed.blocks and count_tokens(packed.text) <= packed.tokens <= budget


def test_half_width_katakana_is_highlighted_on_the_matching_word_only() -> None:
    """ﾊﾞ and ﾌﾞ fold into one character each (バ, ブ): the paragraph around them is no part of the match."""
    text = "ｿｹｯﾄを交換してください。ﾊﾞﾙﾌﾞの点検も毎月行います。"
    assert marked("ソケット", text) == ["ｿｹｯﾄ"]
    assert marked("バルブ", text) == ["ﾊﾞﾙﾌﾞ"]
    assert marked("山崎", "担当は山﨑（内線3306）です。") == ["山﨑"]  # a variant kanji folds in place
    decomposed = "Cafe\u0301 opens. ＴＸ－１００型の点検"
    assert marked("café tx-100", decomposed) == ["Cafe\u0301", "ＴＸ－１００"]
