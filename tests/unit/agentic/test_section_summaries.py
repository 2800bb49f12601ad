from __future__ import annotations

import heapq
import json
import math
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf import artifacts
from docshelf import section_summaries as section_summaries_module
from docshelf.index.analyzer import analyze, normalize
from docshelf.model import Document, Heading, Page, Paragraph, Source
from docshelf.section_summaries import DISTINCT_TERMS, SUMMARY_TOKENS, section_summaries
from docshelf.tokens import count_tokens, encode

if TYPE_CHECKING:
    import pytest


def document(*blocks: Heading | Paragraph) -> Document:
    source = Source("file:///t.md", "t.md", "text/markdown", 1, "0" * 64)
    return Document(source, "T", (Page(1, tuple(blocks)),), "test")


def test_a_summary_is_the_lead_sentence_and_the_sections_distinctive_words() -> None:
    doc = document(
        Heading("Guide", 1, 1),
        Heading("Torque", 2, 1),
        Paragraph("Flange bolts take 45 Nm. Use a calibrated wrench on every flange bolt.", 1),
        Heading("Warranty", 2, 1),
        Paragraph("The valve has a warranty of two years. The warranty covers seals.", 1),
    )
    summaries = section_summaries(doc)
    torque = summaries[("Guide", "Torque")]
    assert torque.startswith("Flange bolts take 45 Nm. — ")
    assert "flange" in torque.split(" — ")[1] and "warranty" not in torque
    assert summaries[("Guide", "Warranty")].split(" — ")[1].startswith("warranty")
    assert ("Guide",) not in summaries  # no text of its own


def test_summaries_are_bounded_in_tokens_in_any_script() -> None:
    long_en = " ".join(f"word{n} alpha{n}" for n in range(300)) + "."
    long_zh = "保修期为两年，保修范围包括阀门和密封件以及所有的配件" * 40
    doc = document(Heading("A", 1, 1), Paragraph(long_en, 1), Heading("B", 1, 1), Paragraph(long_zh, 1))
    summaries = section_summaries(doc)
    assert all(0 < count_tokens(text) <= SUMMARY_TOKENS for text in summaries.values())


def test_doc_nav_and_the_manifest_hierarchy_carry_summaries() -> None:
    doc = document(Heading("Torque", 1, 1), Paragraph("Flange bolts take 45 Nm.", 1))
    nav = artifacts.doc_nav("d1", doc, [])
    assert nav["sections"][0]["summary"].startswith("Flange bolts take 45 Nm.")
    hierarchy = artifacts.section_tree(doc, [])
    assert hierarchy[0].to_dict()["summary"] == nav["sections"][0]["summary"]
    json.dumps(nav)


def test_a_huge_section_is_summarised_from_its_start() -> None:
    from docshelf.section_summaries import SECTION_SAMPLE_CHARS, _section_texts

    filler = "pump housing bearing " * 200_000  # 4 MB of one paragraph, then a sentence past the sample
    doc = document(
        Heading("Huge", 1, 1), Paragraph("Gaskets seal the pump. " + filler, 1), Paragraph("Zebra quagga okapi.", 1)
    )
    [text] = _section_texts(doc.blocks()).values()
    assert len(text) <= SECTION_SAMPLE_CHARS and "Zebra" not in text
    summary = section_summaries(doc)[("Huge",)]
    assert summary.startswith("Gaskets seal the pump.") and count_tokens(summary) <= SUMMARY_TOKENS


def test_the_chunk_stage_summarises_a_document_once_for_the_manifest_and_doc_nav(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.config import PipelineConfig
    from docshelf.pipeline import chunk_stage, parse_stage
    from docshelf.store import LocalStore

    calls: list[object] = []

    def counted(document: Document | None) -> dict[tuple[str, ...], str]:
        calls.append(document)
        return section_summaries(document)

    monkeypatch.setattr(artifacts, "section_summaries", counted)
    store = LocalStore(tmp_path)
    text = b"# Guide\n\n## Torque\n\nFlange bolts take 45 Nm.\n\n## Warranty\n\nTwo years.\n"
    outcome = parse_stage(store, text, namespace="ns", source_key="guide.md", config=PipelineConfig())
    chunk_stage(store, outcome, config=PipelineConfig())
    assert len(calls) == 1
    manifest = json.loads(store.get(f"docs/ns/{outcome.ref.document_id}/manifest.json") or b"")
    nav = json.loads(store.get(f"docs/ns/{outcome.ref.document_id}/doc_nav.json") or b"")
    assert manifest["HIERARCHY"] == nav["sections"] and "45 Nm" in nav["sections"][0]["children"][0]["summary"]


def _distinct_words_by_definition(
    text: str, counts: Counter[str], document_frequency: Counter[str], sections: int
) -> list[str]:
    """What `_distinct_words` computes, written plainly: each word analyzed, the first word of a term as written."""
    words = list(dict.fromkeys(section_summaries_module._WORD.findall(normalize(text))))
    surface = {term: word for word in reversed(words) for term in analyze(word)}
    surface.update((term, term) for term in counts if len(term) == 2 and section_summaries_module._CJK_PAIR.match(term))
    weights = {
        term: count * math.log(1 + sections / document_frequency[term])
        for term, count in counts.items()
        if term in surface
    }
    best = heapq.nsmallest(DISTINCT_TERMS, weights, key=lambda term: (-weights[term], term))
    return list(dict.fromkeys(surface[term] for term in best))


_WORDS = st.sampled_from(
    ["Bolts", "bolt", "torque", "Torques", "flange", "wrench", "the", "and", "seal", "sealing", "seals", "valve",
     "45", "Nm", "x2", "naïve", "Straße", "STRASSE", "保修期", "密封件", "阀门", "ボルト", "締め付け", "a"]
)  # fmt: skip


# Words joined by spaces and by what keeps two words in one whitespace piece ("naïve-Straße", "bolt/seal").
_TEXTS = st.lists(
    st.lists(st.tuples(_WORDS, st.sampled_from([" ", " ", "-", "/", ", ", "\n"])), min_size=1, max_size=30).map(
        lambda pairs: "".join(word + joiner for word, joiner in pairs)
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_distinct_words_are_those_of_the_definition(texts: list[str]) -> None:
    frequencies = [Counter(analyze(text)) for text in texts]
    document_frequency: Counter[str] = Counter()
    for counts in frequencies:
        document_frequency.update(counts.keys())
    for text, counts in zip(texts, frequencies, strict=True):
        expected = _distinct_words_by_definition(text, counts, document_frequency, len(texts))
        pieces = normalize(text).split()
        assert section_summaries_module._distinct_words(pieces, counts, document_frequency, len(texts)) == expected


def _bounded_by_definition(lead: str, words: list[str]) -> str:
    """`_bounded` written plainly: every candidate encoded by tiktoken (with the shipped cl100k vocabulary)."""

    def tokens(text: str) -> int:
        return len(encode(text))

    def with_terms(terms: list[str]) -> str:
        return f"{lead} — {', '.join(terms)}" if terms else lead

    chosen: list[str] = []
    for word in words:
        if tokens(with_terms([*chosen, word])) > SUMMARY_TOKENS:
            break
        chosen.append(word)
    summary = with_terms(chosen)
    while tokens(summary) > SUMMARY_TOKENS:
        summary = summary.rsplit(" ", 1)[0] if " " in summary else summary[: len(summary) * 4 // 5]
    return summary


_LEAD_PIECES = st.sampled_from(
    ["The valve", " has", " 45 Nm.", " seals", "!", "...", " —", " 保修期为两年。", "ボルトを締める", " x²",
     " (see 2.1)", " naïve", "'s", " ", "\n", "\t", "12345", "Ⅻ", "<|endoftext|>", "🙂", " e\u0301"]
)  # fmt: skip
_TERMS = st.one_of(
    st.sampled_from(
        ["flange", "torque", "Straße", "naïve", "保修", "密封", "ボルト", "x²", "Ⅻabc", "endoftext", "ésé"]
    ),
    st.text(st.characters(categories=["L", "N", "M", "P"]), min_size=1, max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LEAD_PIECES, max_size=40).map("".join), st.lists(_TERMS, max_size=DISTINCT_TERMS + 2))
def test_bounded_summaries_are_those_tiktoken_counts_give(lead: str, words: list[str]) -> None:
    assert section_summaries_module._bounded(lead, words) == _bounded_by_definition(lead, words)


def _lead_by_definition(text: str) -> str:
    """The whole section's whitespace collapsed, then its first sentence, at most LEAD_CHARS."""
    first = " ".join(text.split())
    sentence = section_summaries_module._SENTENCE_END.split(first, maxsplit=1)[0]
    limit = section_summaries_module.LEAD_CHARS
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


_SECTION_PIECES = st.sampled_from(
    ["The valve", " has", " 45 Nm.", " seals", "!", "...", "?", " 保修期为两年。", " ", "  ", "\n", "\n\n\t",
     " " * 300, "\n" * 500, "x" * 250, " word" * 60, "a.b", ". ", "。", "！"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_SECTION_PIECES, max_size=60).map("".join))
def test_the_lead_read_from_the_sections_start_is_the_whole_sections(text: str) -> None:
    assert section_summaries_module._lead_sentence(text) == _lead_by_definition(text)
