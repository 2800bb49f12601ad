from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.index.analyzer import (
    analyze,
    analyze_path,
    normalize,
    path_terms,
    path_text,
    raw_terms,
    text_terms,
)
from docshelf.index.kanji_variants import VARIANT_KANJI


def test_identifiers_stay_whole_even_inside_chinese_text() -> None:
    terms = analyze("阀门TX-100的维修手册")
    assert "tx-100" in terms
    assert {"阀门", "维修", "手册"} <= set(terms)
    assert "tx-100" in analyze("Replace the TX-100 seal")


def test_versions_and_email_addresses_are_kept() -> None:
    terms = analyze("Upgrade to v2.3.1 or mail OPS@Corp.com")
    assert "v2.3.1" in terms and "ops@corp.com" in terms


def test_english_is_stemmed_without_stop_words() -> None:
    assert analyze("The valves were running quickly") == ["valv", "run", "quick"]


def test_nfkc_and_case_folding() -> None:
    assert analyze("ＴＸ－１００ Straße") == analyze("tx-100 strasse")


def test_variant_kanji_of_japanese_names_are_their_common_form_in_every_channel() -> None:
    """﨑 (U+FA11) and 髙 are left alone by NFKC; a name written with them meets the name typed with 崎 and 高."""
    assert unicodedata.normalize("NFKC", "山﨑") == "山﨑"
    for variant, common in [
        ("山﨑 花子", "山崎 花子"),
        ("髙橋一郎", "高橋一郎"),
        ("𠮷野家", "吉野家"),
        ("黑田", "黒田"),
    ]:
        assert analyze(variant) == analyze(common)
        assert raw_terms(variant) == raw_terms(common)
        assert analyze_path(variant) == analyze_path(common)
        assert path_terms("名簿.txt", (variant,)) == path_terms("名簿.txt", (common,))
    assert "山崎" in analyze("担当は山﨑（内線3306）です")


def test_the_variant_table_maps_kanji_nfkc_leaves_alone_to_common_japanese_kanji() -> None:
    for variant, common in VARIANT_KANJI.items():
        assert unicodedata.normalize("NFKC", variant) == variant
        assert len(common) == 1 and len(common.encode("shift_jis")) == 2  # a JIS X 0208 kanji
        assert normalize(variant) == common
    # Old and new forms that registers keep apart, and Traditional Chinese writes, are not folded.
    assert normalize("渡邊 濱田 國") == "渡邊 濱田 國"


def test_cjk_runs_give_bigrams_and_characters() -> None:
    assert analyze("年假") == ["年假", "年", "假"]
    assert analyze("東京") == ["東京", "東", "京"]
    assert "서울" in analyze("서울 특별시")
    assert "です" in analyze("会議です")


def test_term_channel_matches_identifier_spellings() -> None:
    shared = set(raw_terms("part TX100")) & set(raw_terms("part TX-100"))
    assert {"tx100", "#tx1", "#x10", "#100"} <= shared
    assert "the" not in raw_terms("the valve") and "valve" in raw_terms("the valve")


def test_path_text_splits_file_names() -> None:
    assert path_text("employee-handbook_2026.docx", ("Vacation",)) == "employee handbook 2026 Vacation"
    assert path_text("PriceList.xlsx", ()) == "Price List"


def _path_match(query: str, title: str) -> bool:
    """Whether a section title is a path-channel candidate for the query (search/query.py's required share)."""
    from docshelf.search.query import has_cjk_term, query_terms, required_matches

    terms = set(query_terms(query)["path"])
    return len(terms & set(analyze_path(title))) >= required_matches("path", len(terms), cjk=has_cjk_term(terms))


def test_path_terms_leave_out_kana_fragments_and_read_katakana_words_as_trigrams() -> None:
    assert analyze_path("キンタイ君") == ["イ君", "君", "キンタ", "ンタイ"]
    assert analyze_path("ワンタイム") == ["ワンタ", "ンタイ", "タイム"]
    assert analyze_path("お知らせ") == ["お知", "知ら", "知"]  # no hiragana alone, no hiragana pair
    assert analyze_path("有給休暇") == analyze("有給休暇")  # Han, as the content channel has it
    assert analyze_path("고객 센터") == analyze("고객 센터")
    assert analyze_path("Chapter 2: Valves") == analyze("Chapter 2: Valves")


def test_titles_sharing_only_fragments_with_the_query_are_no_path_match() -> None:
    assert not _path_match("キンタイ君", "ワンタイムパスワードの設定")  # ン, タ, イ, ンタ, タイ
    assert not _path_match("有給休暇", "給与と休日")  # 給, 休
    assert _path_match("キンタイ君", "キンタイ君の使い方")
    assert _path_match("パスワード", "ワンタイムパスワードの設定")
    assert _path_match("有給休暇は何日", "第6条（年次有給休暇）")


def _text_terms_piece_by_piece(text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The rule `text_terms` keeps: every whitespace piece analyzed alone, a sentence end after each piece ending in
    . ! ? or 。 (with a space put after each 。)."""
    terms: list[str] = []
    ends = []
    for piece in normalize(text).replace("。", "。 ").split():
        terms += analyze(piece)
        if piece[-1] in ".!?。":
            ends.append(len(terms))
    return tuple(terms), tuple(ends)


_TEXT_PIECES = [
    "Pumps",
    "seal",
    "the",
    "leak.",
    "Seal!",
    "ok?",
    "3.5",
    "e.g.",
    "TX-100.",
    "密封件。",
    "泵",
    "．",
    "！",
    "？",
    "。",
    ".",
    "!?",
]
_SPACES = [" ", "  ", "\n", "\t", "\x1c", "\u2028", "\xa0", "\u3000"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_TEXT_PIECES + _SPACES), max_size=40))
def test_text_terms_are_the_terms_and_sentence_ends_of_the_piece_by_piece_rule(words: list[str]) -> None:
    text = "".join(words)
    assert text_terms.__wrapped__(text) == _text_terms_piece_by_piece(text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*"abcxyzAÉé1-_.' ", "the", "and", "ing", "保修", "ボルト"]), max_size=12).map("".join))
def test_a_piece_has_the_terms_of_its_tokens(piece: str) -> None:
    """The plain-word shortcut of the piece caches gives what their tokens' terms give."""
    from docshelf.index import analyzer

    normalized = normalize(piece)
    for part in normalized.split():
        tokens = analyzer._tokens(part)
        assert analyzer._content_terms_of_piece(part) == tuple(
            term for token in tokens for term in analyzer._content_terms_of_token(token)
        )
        assert analyzer._raw_terms_of_piece(part) == tuple(
            term for token in tokens for term in analyzer._raw_terms_of_token(token)
        )


_PATH_PARTS = st.lists(
    st.sampled_from(
        ["Bolt", "torque", "ΑΣ", "\u0301e", "e\u0301", "①", "Ｆｕｌｌ", "保修期", "ボルト", " ", "-", "x_y", "Ⅻ", "ß"]
    ),
    max_size=4,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_PATH_PARTS, st.lists(_PATH_PARTS, max_size=4).map(tuple))
def test_path_terms_are_the_terms_of_the_whole_path_text(name: str, section_path: tuple[str, ...]) -> None:
    assert path_terms(name + ".pdf", section_path) == tuple(analyze_path(path_text(name + ".pdf", section_path)))
