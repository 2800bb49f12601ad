from __future__ import annotations

from docshelf.index.analyzer import analyze, path_text, raw_terms


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
