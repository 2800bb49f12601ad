from __future__ import annotations

import codecs

import pytest

from docshelf.errors import UnsupportedFormatError
from docshelf.parsers.textcodec import decode_text


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
