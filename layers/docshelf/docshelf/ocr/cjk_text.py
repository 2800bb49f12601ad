"""What Tesseract makes of digits, identifiers and stray marks on Chinese and Japanese pages, put right word by word.

- Full-width digits (and digits set apart in a CJK line, `内線 3 3 0 5`) come back as one word a digit, which the
  engine separates by spaces: adjacent digit words of a line holding Han or kana are one number again, when no gap
  between them is wider than the line is tall (a table's columns stay apart). Set at a full-width pitch (each
  digit about as far from the next as the line is tall), they are written full width, as printed.
- A dash between Latin letters or digits read as a Han, kana or other dash character (`TX一100`, `TXー100`) is the
  identifier's hyphen-minus again (full width when the identifier is), so ＴＸ－１００ stays one identifier.
- Characters that look alike across scripts, decided by their neighbours: a katakana ヘ/ベ/ペ between hiragana is
  the hiragana (すベて → すべて), a katakana ニ after a kanji numeral or before a kanji (十ニ, ニ営業) is the numeral
  二, and an X-like mark between Latin letters and digits (`Tメ-100`, `T×-100`, a Greek or Cyrillic X) is the
  letter X.
- A line of words the engine itself gives almost no confidence (a speck read as `RU` at 0.04) is noise, and so
  is such a word of Latin letters inside a CJK line. Han and kana words keep theirs: Tesseract's CJK models give
  correctly read characters a confidence of 0 as often as misread ones.
"""

from __future__ import annotations

import re

from docshelf.ocr.model import OcrLine, OcrWord
from docshelf.scripts import HAN, KANA

# Words below this confidence are dropped: measured text words on degraded scans stay above 0.3.
NOISE_CONFIDENCE = 0.1
# Adjacent digit words closer than this many line heights are one number.
DIGIT_GAP_LINES = 1.0
# A digit run whose digits are this many line heights apart (or more) was set full width.
FULL_WIDTH_PITCH = 0.75
_CJK = re.compile(f"[{KANA}{HAN}]")
_DIGITS = re.compile(r"[0-9０-９]+")
_LATIN = re.compile(r"[A-Za-z]+")
_DIGIT = re.compile(r"[0-9０-９]")
_DASHES = frozenset("一ー－—–‐‑−-")
_ALPHANUMERIC = frozenset(
    [chr(code) for code in (*range(0x30, 0x3A), *range(0x41, 0x5B), *range(0x61, 0x7B))]
    + [chr(code) for code in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B))]
)  # ASCII and full-width digits and letters
_IDENTIFIER_DASH = re.compile(r"(?<=[0-9A-Za-z０-９Ａ-Ｚａ-ｚ])[一ー－—–‐‑−](?=[0-9A-Za-z０-９Ａ-Ｚａ-ｚ])")
_FULL_WIDTH_OFFSET = 0xFEE0
_HIRAGANA = re.compile("[\u3041-\u309f]")
_KATAKANA_TO_HIRAGANA = {"ヘ": "へ", "ベ": "べ", "ペ": "ぺ"}
_KATAKANA = re.compile("[\u30a0-\u30ff\u31f0-\u31ff]")
_KANJI_NUMERALS = frozenset("〇一二三四五六七八九十百千万億")
_HAN = re.compile(f"[{HAN}]")
_X_LIKE = re.compile("(?<=[A-Za-zＡ-Ｚａ-ｚ])[メ×ХхΧχ](?=[0-9A-Za-z０-９Ａ-Ｚａ-ｚ一ー－—–‐‑−-])")


def tidy_line(line: OcrLine) -> OcrLine | None:
    """The line with its noise dropped, its digits joined and its identifiers' dashes restored; None when nothing
    but noise is left."""
    words = list(line.words)
    if all(word.confidence < NOISE_CONFIDENCE for word in words):
        return None
    if any(_CJK.search(word.text) for word in words):
        words = [word for word in words if word.confidence >= NOISE_CONFIDENCE or not _LATIN.fullmatch(word.text)]
        words = _joined_runs(words, max(1, line.box[3] - line.box[1]))
    return OcrLine(tuple(_restored_dashes(_lookalikes_decided(word)) for word in words), line.box)


def _joined_runs(words: list[OcrWord], height: int) -> list[OcrWord]:
    """Words that continue a number (a digit after a digit) or an identifier (a lone dash between letters or
    digits) joined with the word before them, when they are close."""
    runs: list[list[OcrWord]] = []
    for word in words:
        run = runs[-1] if runs else None
        if run is not None and word.box[0] - run[-1].box[2] <= DIGIT_GAP_LINES * height and _continues(run, word):
            run.append(word)
        else:
            runs.append([word])
    words = []
    for run in runs:
        dangling = run.pop() if len(run) > 1 and len(run[-1].text) == 1 and run[-1].text in _DASHES else None
        words.append(run[0] if len(run) == 1 else _joined(run, height))
        if dangling is not None:
            words.append(dangling)
    return words


def _continues(run: list[OcrWord], word: OcrWord) -> bool:
    before, after = run[-1].text, word.text
    if before[-1] in _DASHES and len(before) == 1:  # the dash continues the identifier only if this follows it
        return len(run) > 1 and after[0] in _ALPHANUMERIC
    if _DIGIT.fullmatch(before[-1]) and _DIGIT.fullmatch(after[0]):
        return True
    return len(after) == 1 and after in _DASHES and before[-1] in _ALPHANUMERIC


def _joined(run: list[OcrWord], height: int) -> OcrWord:
    text = "".join(word.text for word in run)
    if (
        len(run) > 2
        and all(_DIGITS.fullmatch(word.text) and len(word.text) == 1 for word in run)
        and (run[-1].box[0] - run[0].box[0]) / (len(run) - 1) >= FULL_WIDTH_PITCH * height
    ):  # one word a digit, each an em apart: printed full width
        text = "".join(chr(ord(char) + _FULL_WIDTH_OFFSET) if char.isascii() else char for char in text)
    box = (run[0].box[0], min(w.box[1] for w in run), run[-1].box[2], max(w.box[3] for w in run))
    confidence = sum(word.confidence for word in run) / len(run)
    return OcrWord(text, box, confidence)


def _restored_dashes(word: OcrWord) -> OcrWord:
    def dash(match: re.Match[str]) -> str:
        before = word.text[match.start() - 1]
        return "－" if not before.isascii() else "-"

    text = _IDENTIFIER_DASH.sub(dash, word.text)
    return word if text == word.text else OcrWord(text, word.box, word.confidence)


def _lookalikes_decided(word: OcrWord) -> OcrWord:
    text = _X_LIKE.sub("X", word.text)
    if _KATAKANA.search(text):
        chars = list(text)
        for index, char in enumerate(chars):
            before = chars[index - 1] if index else ""
            after = chars[index + 1] if index + 1 < len(chars) else ""
            if (
                char in _KATAKANA_TO_HIRAGANA
                and _HIRAGANA.fullmatch(before or " ")
                and _HIRAGANA.fullmatch(after or " ")
            ):
                chars[index] = _KATAKANA_TO_HIRAGANA[char]
            elif (
                char == "ニ"
                and not _KATAKANA.fullmatch(before or " ")
                and (before in _KANJI_NUMERALS or _HAN.fullmatch(after or " "))
            ):
                chars[index] = "二"
        text = "".join(chars)
    return word if text == word.text else OcrWord(text, word.box, word.confidence)
