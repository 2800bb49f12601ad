"""OCR words on Chinese and Japanese pages put right: digit runs, identifiers, noise, and large lines read again."""

from __future__ import annotations

from PIL import Image

from docshelf.ocr.blocks import ocr_paragraphs
from docshelf.ocr.cjk_text import tidy_line
from docshelf.ocr.large_lines import reread_large_lines
from docshelf.ocr.model import OcrLine, OcrPage, OcrParagraph, OcrWord

HEIGHT = 50  # a 12 pt line at 300 dpi


def _words(*placed: tuple[str, int, int], confidence: float = 0.9) -> OcrLine:
    words = tuple(OcrWord(text, (left, 0, right, HEIGHT), confidence) for text, left, right in placed)
    return OcrLine(words, (placed[0][1], 0, placed[-1][2], HEIGHT))


def _text(line: OcrLine | None) -> str:
    assert line is not None
    page = OcrPage(2000, 200, (OcrParagraph((line,)),))
    return ocr_paragraphs(page, 1)[0].text


def test_digits_the_engine_split_in_a_cjk_line_are_one_number_again() -> None:
    line = _words(("内線", 0, 100), ("3", 130, 150), ("3", 160, 180), ("0", 190, 210), ("5", 220, 240))
    assert _text(tidy_line(line)) == "内線 3305"


def test_digits_set_at_a_full_width_pitch_are_written_full_width() -> None:
    digits = [("2", 160, 185), ("0", 210, 235), ("2", 260, 285), ("4", 310, 335)]  # an em (50 px) apart
    line = _words(("点検は", 0, 150), *digits, ("年", 350, 400))
    assert _text(tidy_line(line)) == "点検は２０２４年"


def test_a_table_s_columns_and_latin_lines_keep_their_spaces() -> None:
    far = _words(("数量", 0, 100), ("3", 400, 420), ("5", 900, 920))  # more than a line height apart
    assert _text(tidy_line(far)) == "数量 3 5"
    latin = _words(("Rows", 0, 100), ("1", 130, 150), ("2", 160, 180))  # no Han or kana: English text as read
    assert _text(tidy_line(latin)) == "Rows 1 2"


def test_an_identifier_s_dash_read_as_a_han_or_kana_character_is_a_hyphen_again() -> None:
    line = _words(("型号为", 0, 150), ("TX", 160, 230), ("一", 240, 260), ("100", 262, 340), ("和", 360, 400))
    assert _text(tidy_line(line)) == "型号为 TX-100 和"
    glued = _words(("機種は", 0, 150), ("TXー200", 160, 340), ("です", 350, 450))
    assert _text(tidy_line(glued)) == "機種は TX-200 です"
    wide = _words(("機種", 0, 100), ("ＴＸ一１００", 110, 400))
    assert _text(tidy_line(wide)) == "機種ＴＸ－１００"
    katakana = _words(
        ("サーバー", 0, 200),
    )  # a prolonged sound mark between kana is left alone
    assert _text(tidy_line(katakana)) == "サーバー"


def test_noise_the_engine_is_not_sure_of_is_dropped_but_cjk_characters_keep_any_confidence() -> None:
    speck = _words(("RU", 0, 60), confidence=0.035)
    assert tidy_line(speck) is None
    stray = OcrLine(
        (OcrWord("报告", (0, 0, 100, HEIGHT), 0.9), OcrWord("RU", (110, 0, 160, HEIGHT), 0.03),
         OcrWord("泵", (170, 0, 220, HEIGHT), 0.0)),
        (0, 0, 220, HEIGHT),
    )  # fmt: skip
    assert _text(tidy_line(stray)) == "报告泵"


class _LineReader:
    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []

    def recognise_line(self, image: Image.Image, languages: tuple[str, ...], *, dpi: int | None) -> OcrPage:
        self.sizes.append(image.size)
        word = OcrWord("灯塔检查报告", (5, 5, image.width - 5, image.height - 5), 0.95)
        return OcrPage(image.width, image.height, (OcrParagraph((OcrLine((word,), word.box),)),))


def test_a_title_set_much_larger_than_the_body_is_read_again_at_the_body_s_size() -> None:
    title = OcrLine((OcrWord("让大人灯培检查报告", (100, 100, 700, 200), 0.4),), (100, 100, 700, 200))
    body = [OcrLine((OcrWord("正文", (100, y, 300, y + 50), 0.9),), (100, y, 300, y + 50)) for y in (300, 380, 460)]
    page = OcrPage(1000, 1000, (OcrParagraph((title,)), OcrParagraph(tuple(body))))
    reader = _LineReader()
    reread = reread_large_lines(reader, Image.new("L", (1000, 1000), 255), page, ("chi_sim",), dpi=300)
    assert reread.paragraphs[0].lines[0].words[0].text == "灯塔检查报告"
    assert reread.paragraphs[1] == page.paragraphs[1]
    [(_, height)] = reader.sizes
    assert abs(height - 65) <= 2  # the 130 px crop (margins included) scaled to the 50 px body line: about half


def test_lookalikes_across_scripts_are_decided_by_their_neighbours() -> None:
    line = _words(("サービスの売上は十ニパーセント、すベての地域でニ営業日以内", 0, 1500))
    assert _text(tidy_line(line)) == "サービスの売上は十二パーセント、すべての地域で二営業日以内"
    for read in ("Tメ-100", "T×-100", "TΧ-100", "Tメー100"):  # katakana me, times, Greek chi; a long-vowel mark
        assert _text(tidy_line(_words(("型番は", 0, 150), (read, 180, 400)))) == "型番は TX-100"


def test_katakana_words_keep_their_katakana() -> None:
    line = _words(("ベッドとニュースとヘルプ", 0, 600))
    assert _text(tidy_line(line)) == "ベッドとニュースとヘルプ"


def test_a_number_broken_across_cjk_lines_is_one_number_and_latin_lines_keep_their_space() -> None:
    first = OcrLine((OcrWord("点検は20", (0, 0, 300, HEIGHT), 0.9),), (0, 0, 300, HEIGHT))
    second = OcrLine((OcrWord("24年に実施", (0, 60, 300, 60 + HEIGHT), 0.9),), (0, 60, 300, 60 + HEIGHT))
    page = OcrPage(2000, 200, (OcrParagraph((first, second)),))
    assert ocr_paragraphs(page, 1)[0].text == "点検は2024年に実施"
    english = OcrLine((OcrWord("in 2020", (0, 0, 300, HEIGHT), 0.9),), (0, 0, 300, HEIGHT))
    more = OcrLine((OcrWord("24 people", (0, 60, 300, 60 + HEIGHT), 0.9),), (0, 60, 300, 60 + HEIGHT))
    assert ocr_paragraphs(OcrPage(2000, 200, (OcrParagraph((english, more)),)), 1)[0].text == "in 2020 24 people"
