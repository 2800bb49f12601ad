from __future__ import annotations

import codecs

import pytest

from docshelf.errors import UnsupportedFormatError
from docshelf.parsers.textcodec import decode_report, decode_text


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Crème brûlée à Zürich", "cp1252"),
        ("These “smart quotes” cost 5 €", "cp1252"),
        ("東京都の会議は明日です。よろしくお願いします。", "shift_jis"),
        ("这是一个测试文件，包含中文字符。我们需要检测编码。", "gb18030"),
        ("Привет, как дела? Это тестовый файл на русском языке.", "cp1251"),
        ("IntelliStation POWER hardware and graphics adapters", "cp500"),
    ],
)
def test_legacy_encodings_decode_to_the_original_text(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding))[0] == text


def test_boms_and_declared_charsets_win() -> None:
    assert decode_text(codecs.BOM_UTF16_BE + "Käse".encode("utf-16-be")) == ("Käse", "utf-16-be")
    assert decode_text("Käse".encode()) == ("Käse", "utf-8")
    assert decode_text("Käse".encode("cp1252"), declared="windows-1252")[0] == "Käse"


def test_binary_is_refused_not_decoded() -> None:
    with pytest.raises(UnsupportedFormatError):
        decode_text(bytes(range(256)) * 40)


# Characters only Windows' Shift_JIS (windows-31j) has, or maps otherwise than JIS: NEC and IBM kanji, and the
# full-width tilde at 0x8160, which JIS Shift_JIS reads as the wave dash 〜 (without an error: only the label tells).
CP932_ONLY = ["髙橋と山﨑、受付は9:00～17:00", "受付は9:00～17:00です"]


@pytest.mark.parametrize("text", CP932_ONLY)
@pytest.mark.parametrize("label", ["Shift_JIS", "shift-jis", "x-sjis", "ms_kanji", "SJIS", "windows-31j", "csShiftJIS"])
def test_every_shift_jis_label_reads_as_windows_31j_as_browsers_do(label: str, text: str) -> None:
    assert decode_text(text.encode("cp932"), declared=label) == (text, "cp932")
    assert decode_report(text.encode("cp932"), declared=label).warnings == []


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("キンタイ君の打刻漏れは髙橋まで連絡してください。", "cp932"),  # a short memo: GB18030 read it as 钹嫶…
        ("髙橋 一郎,総務部,3305\r\n山﨑 花子,総務部,3306", "cp932"),  # kanji, no kana
        ("ｿｹｯﾄ検査治具", "cp932"),  # half-width katakana
        ("出張申請書", "cp932"),  # guessed UTF-16 (without a BOM or a NUL)
        ("総務部 髙橋", "cp932"),  # guessed windows-949
        ("内線3305", "cp932"),  # guessed Big5-HKSCS
        ("東京都の会議は明日です。よろしくお願いします。", "euc_jp"),
        ("这是一个测试文件。", "gb18030"),
        ("北京市", "gb18030"),
        ("這是一個測試文件，包含中文字符。", "big5"),
        ("한국어 텍스트 파일입니다", "euc_kr"),
    ],
)
def test_short_cjk_texts_are_decoded_by_how_common_their_characters_are(text: str, encoding: str) -> None:
    decoded = decode_report(text.encode(encoding))
    assert decoded.text == text
    assert decoded.document_warnings()[0].startswith("decoded as ")


def test_iso_2022_jp_is_told_by_its_escape_sequences() -> None:
    text = "会議は明日の10時からです。ｶﾀｶﾅ"
    assert decode_report(text.encode("iso2022_jp_ext")).text == text


def test_a_declared_charset_the_bytes_are_not_in_is_reported() -> None:
    decoded = decode_report("Crème brûlée".encode("cp1252"), declared="euc-jp")
    assert decoded.text == "Crème brûlée"
    assert decoded.warnings == ["the declared charset 'euc-jp' does not decode the bytes; the encoding was detected"]


def test_replaced_bytes_are_counted_in_a_warning() -> None:
    decoded = decode_report(codecs.BOM_UTF16_LE + "Käse".encode("utf-16-le") + b"\x00\xd8")  # a lone surrogate
    assert decoded.text.startswith("Käse") and "\ufffd" in decoded.text
    assert decoded.warnings == ["1 undecodable byte sequences in utf-16-le replaced by U+FFFD"]


def test_a_latin_1_byte_that_would_read_as_a_lone_half_width_katakana_stays_latin() -> None:
    decoded = decode_report("a,b,c\n4,5,©\n".encode("latin-1"))  # detection guesses cp932: ｩ
    assert (decoded.text, decoded.encoding) == ("a,b,c\n4,5,©\n", "cp1252")
