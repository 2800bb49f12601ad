"""Stored snapshots hold analyzed terms: a change to the analyzer's output must come with a new ANALYZER_VERSION."""

from __future__ import annotations

import hashlib

from docshelf.index.analyzer import analyze, path_terms, raw_terms
from docshelf.versions import ANALYZER_VERSION

SAMPLE = (
    "The TX-100 valve (v2.3.1) leaks; mail ops@corp.com or see https://example.com/a_b?x=1. Running runners ran, "
    "generously. Ｆｕｌｌｗｉｄｔｈ ＡＢＣ ﬁ Straße İstanbul. 阀门维修手册TX-100型号 東京都の会議です カタカナ "
    "한국어 텍스트 x86_64 C++ C# 3.14159 1,000,000 e-mail foo_bar O'Neil naïve café 2024-01-31 #tag @user"
)
# Variant kanji (index/kanji_variants.py), in the digest from version 4 on.
VARIANTS_SAMPLE = "山﨑 髙橋 𠮷野 黑田 鄕土 郞 悅 緖"
# The digest of the analyzer's output on SAMPLE for the ANALYZER_VERSION it belongs to.
# Version 3 indexes at most MAX_CHUNK_TRIGRAMS trigrams a chunk (index side only: the sample's terms are version 2's).
DIGESTS = {
    1: "0128571df5cada04a395a33118b80e382a910ee5483d585f534206a53058faf6",
    2: "f86b562e2ccae3aafde7486d13daf555aa5c9881e43772deb346b5b0c5dc07d5",  # path channel: kana fragments out
    3: "f86b562e2ccae3aafde7486d13daf555aa5c9881e43772deb346b5b0c5dc07d5",
    4: "78306cd1a1ff4e089e46dcbb22d1026350debc262679b985039efabd37c307c8",  # variant kanji: 山﨑 is 山崎
}


def _digest() -> str:
    terms = [
        analyze(SAMPLE),
        *([analyze(VARIANTS_SAMPLE), raw_terms(VARIANTS_SAMPLE)] if ANALYZER_VERSION >= 4 else []),
        raw_terms(SAMPLE),
        path_terms("阀门 Manual-v2.pdf", ("Chapter 1: Valves", "1.2 TX-100 seals", "ワンタイムパスワードの設定")),
    ]
    return hashlib.sha256(repr(terms).encode("utf-8")).hexdigest()


def test_the_analyzer_output_is_the_one_its_version_recorded() -> None:
    assert DIGESTS.get(ANALYZER_VERSION) == _digest(), (
        "the analyzer's terms changed: raise ANALYZER_VERSION (stored namespace snapshots hold the old terms) "
        "and record the new digest here"
    )
