from __future__ import annotations

import codecs

import pytest

from docshelf.errors import UnsupportedFormatError
from docshelf.parsers.cjk_detect import half_width_katakana
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


# Files of half-width katakana only, as mainframe and POS exports write them. Before, Shift_JIS ones were read as
# Cyrillic (УНФУоАР ЖРЖХ, ISO-8859-5) or UTF-16, and EUC-JP ones as Shift_JIS kanji of one row (偲漆柴偲酌鴫実).
HALF_WIDTH_TEXTS = ["ﾃｽﾄﾃﾞｰﾀ ｶﾀｶﾅ", "ﾃﾞｰﾀ,ﾁｪｯｸ\r\nｶﾀｶﾅ,ﾃｽﾄ\r\nﾊﾟﾗﾒｰﾀ,ｾｯﾄｱｯﾌﾟ\r\n", "ｱｲｳｴｵ", "ｿｹｯﾄ ﾊﾞﾙﾌﾞ ﾎﾟﾝﾌﾟ"]


@pytest.mark.parametrize("text", HALF_WIDTH_TEXTS)
@pytest.mark.parametrize("encoding", ["cp932", "euc_jp"])
def test_a_text_of_half_width_katakana_only_is_read_as_japanese(text: str, encoding: str) -> None:
    decoded = decode_report(text.encode(encoding))
    assert (decoded.text, decoded.encoding) == (text, encoding)
    assert decoded.document_warnings() == [f"decoded as {encoding}"]


# Cyrillic in the bytes 0xA1-0xDF that Shift_JIS gives half-width katakana: KOI8-R lower case, cp1251 and ISO-8859-5
# capitals; and Latin-1 capitals and signs. None is spelt as katakana is.
NOT_KATAKANA = [
    ("окончание", "koi8_r"),  # ч is ﾞ after ﾎ, but no byte of 0xA6-0xBF
    ("что это", "koi8_r"),  # ч is ﾞ at the start of a word
    ("ПРИВЕТ МИР", "cp1251"),
    ("ВСЁ ЯСНО", "cp1251"),
    ("очень хорошо", "iso8859_5"),  # о is ﾞ
    ("ÀÉÎÕÜ", "latin-1"),
    ("±5 °C, ½ ¼", "latin-1"),  # lone half-width katakana, ｰ at a word's start
]


@pytest.mark.parametrize(("text", "encoding"), NOT_KATAKANA)
def test_cyrillic_and_latin_in_the_half_width_katakana_bytes_are_not_read_as_katakana(text: str, encoding: str) -> None:
    assert half_width_katakana(text.encode(encoding)) is None


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Съешь же ещё этих мягких французских булок, да выпей чаю.", "koi8_r"),
        ("Привет, как дела? Это тестовый файл.", "cp1251"),
        ("привет мир", "iso8859_5"),
        ("ÀÉÎÕÜ", "cp1252"),
        ("Crème brûlée, ±5 °C", "cp1252"),
        ("où", "cp1252"),  # guessed UTF-16 (no NUL): 濹
    ],
)
def test_cyrillic_and_latin_texts_of_the_same_length_still_decode(text: str, encoding: str) -> None:
    decoded = decode_report(text.encode(encoding))
    assert (decoded.text, decoded.encoding) == (text, encoding)
    assert decoded.warnings == []


def test_a_short_kanji_only_euc_text_that_reads_as_chinese_too_says_it_is_ambiguous() -> None:
    """東京都 in EUC-JP is 澎叠旁 in GB 2312: everyday characters both; nothing but a default chooses."""
    decoded = decode_report("東京都".encode("euc_jp"))
    assert "the encoding is ambiguous: in euc_jp the bytes read as '東京都'" in decoded.warnings
    chinese = decode_report("北京市".encode("gb18030"))  # still Chinese, and ambiguous the other way
    assert (chinese.text, chinese.encoding) == ("北京市", "gb18030")
    assert "the encoding is ambiguous: in euc_jp the bytes read as '臼奨偏'" in chinese.warnings


def test_even_half_width_katakana_that_read_as_everyday_hanzi_are_named_in_the_warning() -> None:
    """Two half-width katakana are one double-byte character: ｺﾝﾊﾟｲﾙ is 狠蔬操 in GBK, three everyday hanzi."""
    decoded = decode_report("ｺﾝﾊﾟｲﾙ".encode("cp932"))
    assert "the encoding is ambiguous: in cp932 the bytes read as 'ｺﾝﾊﾟｲﾙ'" in decoded.warnings


def test_text_with_kana_or_in_whole_sentences_is_not_ambiguous() -> None:
    for text, encoding in [
        ("東京都の会議は明日です。", "euc_jp"),
        ("这是一个测试文件，包含中文字符。我们需要检测编码。", "gb18030"),
    ]:
        decoded = decode_report(text.encode(encoding))
        assert (decoded.text, decoded.warnings) == (text, [])
