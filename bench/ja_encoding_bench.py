"""How unlabelled legacy-encoded texts decode (parsers/textcodec.py `decode_report`): half-width katakana files, short
Chinese texts, kanji-only Japanese texts, Cyrillic and Latin texts of the same lengths.

    python -m bench.ja_encoding_bench [--json FILE]

Texts are made from ../shared: katakana words and kanji runs of the corpus's Japanese pages (html/jlreq-ja.html,
md/jlreq-README-ja.md), made half-width; the first 700 questions of XQuAD zh and CMRC 2018 (GB18030) and DRCD (Big5),
cut to 2, 3, 4 and 6 characters and whole, and 40 documents of each; Russian and French words. Each is encoded,
decoded, and counted right when the text comes back; `warned` counts the decodes that carry the ambiguity warning.
Run it on the code before a change with `PYTHONPATH=BASE/layers/docshelf` to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from docshelf.parsers.textcodec import decode_report

SHARED = Path(__file__).resolve().parents[1].parent / "shared"  # as bench/quality_bench.py finds it
JAPANESE_PAGES = ("corpus/html/jlreq-ja.html", "corpus/md/jlreq-README-ja.md")
CHINESE_SETS = (("xquad_zh", "gb18030"), ("cmrc2018_zh", "gb18030"), ("drcd_zh", "big5"))
QUESTIONS, DOCUMENTS, CUTS = 700, 40, (2, 3, 4, 6, None)
RUSSIAN = [
    "привет", "как", "дела", "это", "тестовый", "файл", "на", "русском", "языке", "мы", "проверяем", "кодировку",
    "очень", "хорошо", "спасибо",
]  # fmt: skip
FRENCH = [
    "crème", "brûlée", "à", "zürich", "déjà", "vu", "été", "français", "garçon", "naïve", "où", "über", "straße",
    "ÀÉÎÕÜ",
]  # fmt: skip
AMBIGUOUS = "the encoding is ambiguous"


def half_width(word: str) -> str | None:
    """A full-width katakana word in half-width forms (ｰ for ー, ﾞ and ﾟ for the sound marks), None if one has none."""
    forms = []
    for char in word:
        if char == "ー":
            forms.append("ｰ")
            continue
        decomposed = unicodedata.normalize("NFD", char)
        base, marks = decomposed[0], decomposed[1:]
        try:
            forms.append(unicodedata.lookup("HALFWIDTH " + unicodedata.name(base)))
        except (KeyError, ValueError):
            return None
        forms.extend({"\u3099": "ﾞ", "\u309a": "ﾟ"}[mark] for mark in marks)
    return "".join(forms)


def tally(samples: list[tuple[str, str, str]]) -> dict[str, dict[str, int]]:
    """Per group: texts, decoded right, and the right and wrong ones that carry the ambiguity warning."""
    rows: dict[str, Counter[str]] = {}
    for group, text, encoding in samples:
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError:
            continue
        if data.isascii():
            continue
        decoded = decode_report(data)
        right = decoded.text == text
        warned = any(warning.startswith(AMBIGUOUS) for warning in decoded.warnings)
        row = rows.setdefault(group, Counter())
        row.update(texts=1, right=right, right_warned=right and warned, wrong_warned=not right and warned)
    return {group: dict(row) for group, row in rows.items()}


def japanese_samples(rng: random.Random) -> list[tuple[str, str, str]]:
    text = "".join((SHARED / page).read_text(encoding="utf-8") for page in JAPANESE_PAGES)
    words = [word for word in map(half_width, sorted(set(re.findall("[ァ-ヺ][ァ-ヺー]+", text)))) if word]
    kanji = sorted(set(re.findall("[一-龥]{2,6}", text)))
    samples = []
    for encoding in ("cp932", "euc_jp"):
        for count in (1, 2, 3, 5):
            for _ in range(300):
                joined = rng.choice([" ", ",", "\r\n"]).join(rng.sample(words, count))
                samples.append((f"half-width katakana, {encoding}, {count} word(s)", joined, encoding))
        samples += [(f"kanji only, 2-6 characters, {encoding}", run, encoding) for run in kanji]
    return samples


def chinese_samples() -> list[tuple[str, str, str]]:
    samples = []
    for name, encoding in CHINESE_SETS:
        lines = (SHARED / "ireval" / name / "queries.jsonl").read_text(encoding="utf-8").splitlines()
        for query in [json.loads(line)["query"] for line in lines[:QUESTIONS]]:
            samples += [(f"{name} questions, {cut or 'whole'}", query[:cut], encoding) for cut in CUTS]
        for document in sorted((SHARED / "ireval" / name / "docs").glob("*.md"))[:DOCUMENTS]:
            samples.append((f"{name} documents", document.read_text(encoding="utf-8"), encoding))
    return samples


def other_samples(rng: random.Random) -> list[tuple[str, str, str]]:
    samples = []
    for words, encodings in ((RUSSIAN, ("koi8_r", "cp1251", "iso8859_5")), (FRENCH, ("cp1252",))):
        for encoding in encodings:
            for count in (1, 2, 3, 5):
                for _ in range(100):
                    samples.append((f"{words[0]}…, {encoding}", " ".join(rng.sample(words, count)), encoding))
    return samples


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="also write the counts to this file")
    arguments = parser.parse_args(argv)
    rng = random.Random(7)
    result = tally(japanese_samples(rng) + chinese_samples() + other_samples(rng))
    print("| texts | decoded right | right, with the ambiguity warning | wrong, with it |")
    print("|---|---|---|---|")
    for group, row in result.items():
        counts = [row.get(key, 0) for key in ("texts", "right", "right_warned", "wrong_warned")]
        print(f"| {group} | {counts[1]} of {counts[0]} | {counts[2]} | {counts[3]} of {counts[0] - counts[1]} |")
    if arguments.json:
        arguments.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    main()
