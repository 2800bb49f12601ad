from __future__ import annotations

from docshelf.index.analyzer import analyze, analyze_path, path_text, raw_terms


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
