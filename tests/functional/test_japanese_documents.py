"""Japanese documents as a Japanese team has them (tests/support/ja_documents.py): work rules with and without heading
styles, Shift_JIS notices, a workbook with Japanese sheet names; parsed, chunked, indexed and searched as a user
would."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from docshelf.chunking import chunk_document
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk, Document, Heading, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tables import block_text
from docshelf.tokens import count_tokens
from tests.support import ja_documents as ja

RULES_VARIANTS: dict[str, Callable[[], bytes]] = {
    "就業規則.docx": lambda: ja.rules_docx(styled=False),
    "就業規則_見出し.docx": lambda: ja.rules_docx(styled=True),
    "就業規則.txt": lambda: ja.rules_text().encode("utf-8"),
    "就業規則.html": lambda: ja.rules_html(headings=False).encode("utf-8"),
    "就業規則_見出し.html": lambda: ja.rules_html(headings=True).encode("utf-8"),
    "就業規則_段落番号.docx": ja.rules_docx_numbered,
}
UNSTYLED = ["就業規則.docx", "就業規則.txt", "就業規則.html"]


def _parsed(name: str) -> Document:
    return parse_bytes(RULES_VARIANTS[name](), name)


def _headings(document: Document) -> list[tuple[str, int]]:
    return [(block.text, block.level) for block in document.blocks() if isinstance(block, Heading)]


@pytest.mark.parametrize("name", UNSTYLED)
def test_unstyled_rules_have_every_chapter_article_and_dotted_heading_at_its_level(name: str) -> None:
    assert _headings(_parsed(name)) == ja.RULES_HEADINGS


def test_rules_numbered_by_a_word_list_have_their_chapters_and_articles() -> None:
    """`第%1章` / `第%2条` list labels (the paragraphs hold `総則`, `（目的）`) are headings; `１．１` too."""
    headings = _headings(_parsed("就業規則_段落番号.docx"))
    labelled = [  # Word's labels are `第10条` with ASCII digits, and a space before the paragraph's text
        (unicodedata.normalize("NFKC", text).replace("(", " （").replace(")", "）") if level == 2 else text, level)
        for text, level in ja.RULES_HEADINGS
    ]
    assert headings == labelled


def test_styled_rules_keep_the_headings_their_styles_give() -> None:
    assert _headings(_parsed("就業規則_見出し.docx")) == [(ja.RULES_TITLE, 1), *ja.RULES_HEADINGS]
    html = _headings(_parsed("就業規則_見出し.html"))
    assert html == [(text, level + 1) for text, level in ja.RULES_HEADINGS]


@pytest.mark.parametrize("name", list(RULES_VARIANTS))
def test_no_chunk_of_the_rules_is_without_a_section_path(name: str) -> None:
    chunks = chunk_document(_parsed(name), document_id="rules", namespace="ja")
    assert len(chunks) >= 5
    assert [chunk.text[:30] for chunk in chunks if not chunk.section_path] == []
    # A heading line never runs into the text under it: each is a line of its own.
    lines = {line for chunk in chunks for line in chunk.text.split("\n")}
    headings = _headings(_parsed(name))
    assert len(headings) >= len(ja.RULES_HEADINGS)
    assert [text for text, _ in headings if text not in lines] == []


@pytest.mark.parametrize("name", ["就業規則.docx", "就業規則_見出し.docx", "就業規則.html", "就業規則_見出し.html"])
def test_a_table_chunk_carries_its_section_and_the_sentence_that_introduces_it(name: str) -> None:
    tables = [c for c in chunk_document(_parsed(name), document_id="rules", namespace="ja") if c.type == "table"]
    leave = next(chunk for chunk in tables if "付与日数" in chunk.text)
    assert leave.section_path[-2:] == ("第3章 休暇", "第6条（年次有給休暇）")
    # An article opening with its table: its titles, then the sentence introducing the grid, head the table's chunk.
    titles, intro, _ = leave.text.partition(ja.LEAVE_TABLE_INTRO + "\n| 勤続年数 | 付与日数 |")
    assert intro and all(line in leave.section_path for line in titles.splitlines())
    assert leave.token_count == count_tokens(leave.text)
    special = next(chunk for chunk in tables if "本人の結婚" in chunk.text)
    titles, intro, _ = special.text.partition(ja.SPECIAL_LEAVE_INTRO)
    assert intro and all(line in special.section_path for line in titles.splitlines())


def _index(tmp_path: Path, names: dict[str, bytes]) -> EmbeddedIndex:
    index = EmbeddedIndex(LocalStore(tmp_path / "store"))
    for name, data in names.items():
        index.upsert("ja", name, "r", chunk_document(parse_bytes(data, name), document_id=name, namespace="ja"))
    return index


def _other_documents(tmp_path: Path) -> dict[str, bytes]:
    paths = ja.write_documents(tmp_path / "docs")
    return {path.name: path.read_bytes() for path in paths if not path.name.startswith("就業規則")}


@pytest.mark.parametrize("name", list(RULES_VARIANTS))
def test_the_paid_leave_question_is_answered_within_800_tokens_of_evidence(tmp_path: Path, name: str) -> None:
    index = _index(tmp_path, {name: RULES_VARIANTS[name](), **_other_documents(tmp_path)})
    response = search(index, SearchRequest("ja", "有給休暇は何日付与されますか", max_tokens=800))
    assert count_tokens(response.evidence_text) <= 800
    assert "10日" in response.evidence_text and "20日" in response.evidence_text
    # The grid's chunk (a table chunk, or the tab-separated lines of the text file) is among the first three.
    assert any("付与日数" in result.chunk.text for result in response.results[:3])


def _names(chunk: Chunk) -> bool:
    return "キンタイ君" in chunk.text


def test_single_katakana_shared_with_a_section_title_never_outranks_the_text_naming_the_product(
    tmp_path: Path,
) -> None:
    """The IT guide's section "ワンタイムパスワードの設定" shares ン, タ, イ, ンタ and タイ with キンタイ君."""
    index = _index(tmp_path, _other_documents(tmp_path))
    results = search(index, SearchRequest("ja", "キンタイ君", top_k=8)).results
    naming = [number for number, result in enumerate(results) if _names(result.chunk)]
    title_only = [n for n, result in enumerate(results) if "ワンタイム" in " ".join(result.chunk.section_path)]
    assert naming[:2] == [0, 1] and title_only and min(title_only) > max(naming)
    assert all("path" not in results[number].channel_ranks for number in title_only)
    # A whole katakana word of a title still matches it in the path channel.
    password = search(index, SearchRequest("ja", "パスワード", top_k=3)).results
    assert password[0].channel_ranks.get("path") == 0 and "ワンタイムパスワードの設定" in password[0].chunk.section_path


def test_a_shift_jis_page_keeps_the_kanji_only_windows_has() -> None:
    document = parse_bytes(ja.notice_html(), "お知らせ.html")
    text = "\n".join(block.text for block in document.blocks() if isinstance(block, Paragraph))
    assert "髙橋（内線3305）と山﨑（内線3306）" in text and "9:00～17:00" in text
    assert document.warnings == ()
    tilde = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>受付は9:00～17:00です</p>'
    page = parse_bytes(tilde.encode("cp932"), "受付.html")
    assert [block_text(block) for block in page.blocks()] == ["受付は9:00～17:00です"]


def test_short_shift_jis_text_and_csv_are_read_as_japanese_and_say_so() -> None:
    memo = parse_bytes(ja.notice_text(), "メモ.txt")
    assert [block_text(block) for block in memo.blocks()] == ["キンタイ君の打刻漏れは髙橋まで連絡してください。"]
    assert memo.warnings == ("decoded as cp932",)
    staff = parse_bytes(ja.staff_csv(), "社員名簿.csv")
    table = next(block for block in staff.blocks() if isinstance(block, Table))
    assert [cell.text for cell in table.cells if cell.row == 2] == list(ja.STAFF_ROWS[2])
    assert staff.warnings == ("decoded as cp932",)


def test_a_half_width_katakana_export_is_read_as_japanese_and_found_by_full_width_words(tmp_path: Path) -> None:
    """A point-of-sale export in half-width katakana only (Shift_JIS and EUC-JP), as legacy systems write them."""
    rows = "ｼｮｳﾋﾝｺｰﾄﾞ,ｼｮｳﾋﾝﾒｲ,ｿﾞｸｾｲ\r\nA-100,ｿｹｯﾄ,ﾃｽﾄﾃﾞｰﾀ\r\nB-200,ﾊﾞﾙﾌﾞ,ｶﾀｶﾅ\r\n"
    for encoding in ("cp932", "euc_jp"):
        document = parse_bytes(rows.encode(encoding), "商品.csv")
        table = next(block for block in document.blocks() if isinstance(block, Table))
        assert [cell.text for cell in table.cells if cell.row == 1] == ["A-100", "ｿｹｯﾄ", "ﾃｽﾄﾃﾞｰﾀ"]
        assert document.warnings == (f"decoded as {encoding}",)
    index = _index(tmp_path, {"商品.csv": rows.encode("euc_jp")})
    results = search(index, SearchRequest("ja", "バルブの商品コード", top_k=1)).results
    assert "ﾊﾞﾙﾌﾞ" in results[0].chunk.text


def test_a_short_kanji_only_euc_jp_file_carries_the_ambiguity_warning() -> None:
    memo = parse_bytes("東京都\n".encode("euc_jp"), "宛先.txt")
    assert memo.warnings[0].startswith("decoded as ")
    assert "the encoding is ambiguous: in euc_jp the bytes read as '東京都'" in memo.warnings


def test_sheets_with_japanese_names_are_the_section_paths_of_their_chunks() -> None:
    document = parse_bytes(ja.equipment_xlsx(), "設備台帳.xlsx")
    chunks = chunk_document(document, document_id="equipment", namespace="ja")
    assert {chunk.section_path[0] for chunk in chunks} == set(ja.EQUIPMENT_SHEETS)
    assert any("ＴＸ－１００" in chunk.text and "ｿｹｯﾄ検査治具" in chunk.text for chunk in chunks)


def test_status_columns_line_up_under_japanese_file_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from docshelf.local.cli import main
    from docshelf.local.display_width import display_width

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.txt").write_text("Replace the seal every 6 months.\n", encoding="utf-8")
    (folder / "就業規則.txt").write_text(ja.rules_text(), encoding="utf-8")
    (folder / "打刻漏れメモ.txt").write_bytes(ja.notice_text())
    store = str(tmp_path / "store")
    assert main(["ingest", str(folder), "--namespace", "ja", "--store", store, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["status", "--namespace", "ja", "--store", store]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " ok " in line]
    assert len(lines) == 3
    assert len({display_width(line.split(" ok ")[0]) for line in lines}) == 1  # the status column starts alike
