"""Evidence packed by passages (search/packing.py), its compact headers (citations.py) and the search fields that
say what went in and how sure it is (search/confidence.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docshelf.citations import PAGELESS_FORMATS, PAGELESS_SUFFIXES, evidence_header
from docshelf.errors import InvalidQueryError
from docshelf.index.analyzer import analyze
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.parsers import parse_bytes
from docshelf.parsers.formats import FORMATS
from docshelf.search.confidence import GOOD_MATCH, confidence, query_weights, term_share
from docshelf.search.packing import JOINER, PACKING, is_heading_only, pack_evidence, passage_weights
from docshelf.search.request import SearchRequest
from docshelf.search.sentences import sentence_spans
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens

FILLER = " ".join(f"Filler sentence number {n} says nothing of use." for n in range(40))


def chunk(i: int, text: str, *, doc: str = "d1", name: str = "report.pdf", path: tuple[str, ...] = ("Results",),
          pages: tuple[int, ...] = (3,)) -> Chunk:  # fmt: skip
    return Chunk(
        chunk_id=f"c{i}", document_id=doc, namespace="ns", type="text", text=text, section_path=path, pages=pages,
        token_count=count_tokens(text), ordinal=i, source_file_name=name,
    )  # fmt: skip


def test_sentences_end_at_stops_followed_by_space_cjk_stops_and_lines() -> None:
    text = "The genome is 3.5 kb long. It was sequenced (twice). Done?\n# Methods\n第一句。第二句！"
    parts = [text[start:end] for start, end in sentence_spans(text)]
    assert parts == [
        "The genome is 3.5 kb long.",
        "It was sequenced (twice).",
        "Done?",
        "# Methods",
        "第一句。",
        "第二句！",
    ]


_AFTER_A_MARK = re.compile(r"(?<=[.!?])[\"')\]]*\s+|(?<=[。！？])|\n+")


def _spans_by_lookbehind(text: str) -> list[tuple[int, int]]:
    """The rule as first written: boundaries found by looking behind each position for the mark."""
    spans, start = [], 0
    for boundary in _AFTER_A_MARK.finditer(text):
        spans.append((start, boundary.start() if boundary.group().isspace() else boundary.end()))
        start = boundary.end()
    spans.append((start, len(text)))
    trimmed = [
        (s + len(text[s:e]) - len(text[s:e].lstrip()), e - len(text[s:e]) + len(text[s:e].rstrip())) for s, e in spans
    ]
    return [(s, e) for s, e in trimmed if s < e]


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="ab .!?。！？\"')]\n\t文", max_size=40))
def test_sentence_boundaries_are_those_a_look_behind_for_the_mark_finds(text: str) -> None:
    assert sentence_spans(text) == _spans_by_lookbehind(text)


def test_the_answering_sentence_comes_before_the_rest_of_a_long_chunk() -> None:
    answer = "The bovine coronavirus genome is around 31 kb in size."
    long_chunk = chunk(1, f"{FILLER} {answer} {FILLER}")
    packed = pack_evidence([long_chunk], {"genom": 2.0, "size": 1.0, "bovin": 3.0}, 120)
    assert answer in packed.text and count_tokens(packed.text) <= packed.tokens <= 120
    block = packed.blocks[0]
    assert not block.whole and answer in block.excerpt and block.excerpt in packed.text
    assert packed.text.startswith("[1] report.pdf › Results, p. 3\n")


def test_a_term_every_candidate_sentence_holds_weighs_less_in_choosing_passages() -> None:
    subject = "Venezuelan equine encephalitis"
    paper = chunk(0, f"{subject} virus infects horses. {subject} is spread by mosquitoes. {subject} was weaponized.")
    review = chunk(1, "In children the mortality rate reaches 35%.", doc="d2", name="review.pdf")
    weights = {"venezuelan": 5.0, "equin": 4.0, "enceph": 3.0, "mortal": 3.0, "rate": 2.0, "children": 3.0}
    local = passage_weights([paper, review], weights, PACKING.local_share)
    assert sum(local.values()) == pytest.approx(1.0)
    assert local["venezuelan"] < weights["venezuelan"] / sum(weights.values())
    assert local["mortal"] > weights["mortal"] / sum(weights.values())
    assert passage_weights([paper, review], weights, 0.0) == weights
    for budget in (30, 40):  # room for one passage: the one holding what the paper's other sentences do not
        assert pack_evidence([paper, review], weights, budget).text.endswith("mortality rate reaches 35%.")
        collection_idf = replace(PACKING, local_share=0.0)
        assert "35%" not in pack_evidence([paper, review], weights, budget, settings=collection_idf).text


def test_passages_of_one_chunk_share_a_header_in_reading_order() -> None:
    text = f"Alpha valve opens first. {FILLER} Beta pump closes last."
    packed = pack_evidence([chunk(1, text)], {"alpha": 1.0, "beta": 1.0}, 200)
    assert packed.text.count("[") == 1 and JOINER in packed.blocks[0].excerpt
    first, second = packed.blocks[0].excerpt.split(JOINER)
    assert "Alpha valve" in first and "Beta pump" in second


def test_a_chunk_whose_passages_cover_it_is_counted_whole_so_the_next_passage_fits() -> None:
    """Once its passages cover every sentence, a chunk costs what it was judged to fit at: the whole chunk, not its
    sentences and the gaps between them counted one by one (a token more a gap), so the next chunk's passage fits in
    the tokens that leaves."""
    dense = chunk(1, " ".join(f"Valve {n} seals the pump." for n in range(12)))
    other = chunk(2, "The pump seal failed once in March.", doc="d2", name="log.pdf")
    assert len(sentence_spans(dense.text)) == 12
    weights = dict.fromkeys(analyze("valve seal pump"), 1.0)
    budget = (
        count_tokens(evidence_header(1, dense)) + dense.token_count + 2
        + count_tokens(evidence_header(1, other, dense)) + other.token_count
    )  # fmt: skip
    packed = pack_evidence([dense, other], weights, budget)
    assert [block.chunk.chunk_id for block in packed.blocks] == ["c1", "c2"]
    assert [block.whole for block in packed.blocks] == [True, True]
    assert count_tokens(packed.text) <= packed.tokens <= budget


def test_every_budget_is_kept_and_more_budget_never_loses_the_answer() -> None:
    answer = "Seals are replaced every 2000 operating hours."
    chunks = [chunk(i, f"{FILLER} {answer if i == 2 else ''} {FILLER}", doc=f"d{i}") for i in range(1, 5)]
    weights = {"seal": 2.0, "replac": 1.0, "oper": 1.0, "hour": 1.0}
    found_at = None
    for budget in range(5, 700, 15):
        packed = pack_evidence(chunks, weights, budget)
        assert count_tokens(packed.text) <= packed.tokens <= budget
        if answer in packed.text and found_at is None:
            found_at = budget
        if found_at is not None:
            assert "2000 operating hours" in packed.text
    assert found_at is not None and found_at < 60


def test_a_document_s_blocks_stand_together_in_reading_order_with_short_headers() -> None:
    a1 = chunk(1, "Pump seal wear is checked weekly.", path=("Pump", "Checks"), pages=(2,))
    b = chunk(2, "The seal kit ships in one box.", doc="d2", name="shipping.md", path=("Kits",), pages=(1,))
    a0 = chunk(0, "The pump seal is replaced yearly.", path=("Pump", "Checks"), pages=(1,))
    packed = pack_evidence([a1, b, a0], {"seal": 1.0, "pump": 1.0}, 500)
    assert [block.chunk.chunk_id for block in packed.blocks] == ["c0", "c1", "c2"]  # d1 in reading order, then d2
    headers = [block.header for block in packed.blocks]
    assert headers == ["[1] report.pdf › Checks, p. 1\n", "[2] p. 2\n", "[3] shipping.md › Kits\n"]


def test_headers_stay_short_for_long_names_and_titles() -> None:
    title = "First Complete Genome Sequence of a French Bovine coronavirus Strain"
    paper = chunk(1, "Text.", name="003_First_Complete_Genome_Sequence_of_a_French_Bovin.md", path=(title,))
    assert evidence_header(1, paper) == "[1] 003_First_Complete_Genome_Sequence_of_a_French_Bovin.md\n"
    long_title = "Maintenance of the hydraulic pump, its seals and its bearings"
    manual = chunk(2, "Text.", name="manual.pdf", path=("Chapter 4", long_title))
    header = evidence_header(7, manual)
    assert header == "[7] manual.pdf › Maintenance of the hydraulic pump, its seals and…, p. 3\n"


def test_a_header_names_a_page_only_for_a_format_with_pages() -> None:
    for name in ("notes.md", "page.HTML", "table.csv", "log.txt", "letter.rtf", "data.jsonl"):
        assert evidence_header(1, chunk(1, "Text.", name=name, path=("Kits",), pages=(1,))) == f"[1] {name} › Kits\n"
    for name in ("report.pdf", "deck.pptx", "book.xlsx", "memo.docx", "scan.tiff", "novel.epub"):
        header = evidence_header(1, chunk(1, "Text.", name=name, path=("Kits",), pages=(1,)))
        assert header == f"[1] {name} › Kits, p. 1\n"


def test_pageless_formats_are_those_whose_parsers_give_one_page() -> None:
    """Every format whose parser never numbers pages: a document of it is one page, whatever its length."""
    long_text = "\n\n".join(f"Paragraph {number} about the pump seal." for number in range(400)).encode()
    samples = {"txt": (long_text, "long.txt"), "md": (long_text, "long.md"), "rst": (long_text, "long.rst"),
               "adoc": (long_text, "long.adoc"), "csv": (b"a,b\n1,2\n", "t.csv")}  # fmt: skip
    for fmt, (data, name) in samples.items():
        assert fmt in PAGELESS_FORMATS and parse_bytes(data, name).pages[-1].number == 1
    assert {ext for fmt in FORMATS if fmt.name in PAGELESS_FORMATS for ext in fmt.extensions} == PAGELESS_SUFFIXES


def test_a_heading_only_chunk_is_never_evidence() -> None:
    heading = chunk(1, "Stanley Cups", path=("Hockey", "Stanley Cups"))
    nested = chunk(2, "# 1.2 Tables\n\n1.2.2 Table with nested table", path=("1.2 Tables",))
    body = chunk(3, "The Stanley Cups were won five times in a row.", path=("Hockey", "Stanley Cups"))
    assert is_heading_only(heading) and is_heading_only(nested) and not is_heading_only(body)
    cut_paragraph = chunk(
        5,
        "大莱龙铁路\n\n大莱龙铁路位于山东省北部环渤海地区，西起潍坊大家洼车站，全长175公里。铁路西与德大",
        path=("大莱龙铁路",),
    )
    assert not is_heading_only(cut_paragraph)  # a Chinese paragraph cut at the chunk's end is text, not a heading
    assert is_heading_only(chunk(6, "大莱龙铁路\n\n历史", path=("大莱龙铁路",)))
    assert not is_heading_only(replace(chunk(4, "Seals", path=("Seals",)), type="table"))
    packed = pack_evidence([heading, nested, body], {"stanley": 1.0, "cup": 1.0, "tabl": 1.0}, 500)
    assert [block.chunk.chunk_id for block in packed.blocks] == ["c3"]


def test_deferred_chunks_come_after_every_other_passage() -> None:
    real = chunk(1, f"ESC-4417 is the escalation for the broken pump. {FILLER}")
    loose = [chunk(i, f"The pump escalation desk. {FILLER}", doc=f"d{i}") for i in range(2, 5)]
    weights = {"esc-4417": 5.0, "pump": 1.0, "escal": 1.0}
    packed = pack_evidence([*loose, real], weights, 150, deferred={"c2", "c3", "c4"})
    assert packed.blocks[0].chunk.chunk_id == "c1"


def test_confidence_follows_the_share_of_the_query_a_chunk_holds() -> None:
    weights = query_weights(["capit", "mongolia"], {"capit": 3.0})  # nothing holds "mongolia": as rare as "capital"
    assert weights == {"capit": 3.0, "mongolia": 3.0}
    assert term_share({"capit"}, weights) == 0.5
    assert confidence(1.0) > GOOD_MATCH > confidence(0.5) > confidence(0.0)


@pytest.fixture
def index(tmp_path: Path) -> EmbeddedIndex:
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = [
        f"{FILLER} The stem seal is replaced every six months by the site crew. {FILLER}",
        "Torque the M12 bolts to 80 Nm.",
        "Shipping cartons are stacked on pallets.",
    ] + [f"Unrelated paragraph number {i} about invoices." for i in range(12)]
    index.upsert("ns", "d1", "r", [chunk(i, text, path=("Maintenance",)) for i, text in enumerate(texts)])
    return index


def test_results_say_where_they_went_in_the_evidence_and_how_sure_they_are(index: EmbeddedIndex) -> None:
    response = search(index, SearchRequest("ns", "how often is the stem seal replaced?", top_k=3, max_tokens=150))
    body = response.to_dict()
    best = body["results"][0]
    assert best["chunk_id"] == "c0" and best["evidence_ref"] == 1
    assert best["evidence_excerpt"] in body["evidence_text"] and "every six months" in best["evidence_excerpt"]
    assert best["lexical_score"] > 0 and best["confidence"] >= GOOD_MATCH and body["good_match"]
    assert body["evidence_tokens"] <= 150 and "d1#c0" not in body["evidence_text"]  # ids live in results
    uncited = [r for r in body["results"] if r["evidence_ref"] is None]
    assert all(r["evidence_excerpt"] is None for r in uncited)


def test_an_off_topic_question_says_nothing_matched_well_and_min_score_drops_weak_results(
    index: EmbeddedIndex,
) -> None:
    off = search(index, SearchRequest("ns", "what is the capital of mongolia and its seal?", top_k=5))
    assert off.results and not off.good_match
    assert all(r.confidence < GOOD_MATCH for r in off.results)
    strict = search(index, SearchRequest("ns", "what is the capital of mongolia and its seal?", min_score=GOOD_MATCH))
    assert strict.results == [] and strict.evidence_text == "" and not strict.good_match
    with pytest.raises(InvalidQueryError):
        SearchRequest("ns", "seal", min_score=1.5)


def test_the_same_request_gives_the_same_evidence_byte_for_byte(index: EmbeddedIndex) -> None:
    request = SearchRequest("ns", "seal bolts pallets invoices", top_k=8, max_tokens=300)
    texts = {search(index, request).evidence_text for _ in range(10)}
    assert len(texts) == 1


def test_a_table_passage_keeps_its_header_rows() -> None:
    rows = "\n".join(f"| part {n} | {n * 10} |" for n in range(40))
    table = replace(chunk(1, f"| part | price |\n|---|---|\n{rows}\n| gasket kit | 999 |"), type="table")
    packed = pack_evidence([table], {"gasket": 1.0}, 60)
    excerpt = packed.blocks[0].excerpt
    assert excerpt.startswith("| part | price |\n|---|---|") and "gasket kit" in excerpt


def test_a_table_s_head_weighs_in_the_passages_of_its_rows() -> None:
    prose = chunk(1, f"The TX-200 ships in a blue crate. {FILLER}", doc="d1")
    table = replace(
        chunk(2, "Warranty\n| Product | Years |\n|---|---|\n| TX-100 | 2 |\n| TX-200 | 3 |", doc="d2"), type="table"
    )
    packed = pack_evidence([prose, table], {"warranti": 2.0, "tx-200": 1.0}, 400, max_blocks=1)
    assert [block.chunk.chunk_id for block in packed.blocks] == ["c2"]  # the row under "Warranty" answers
    assert packed.blocks[0].excerpt.startswith("Warranty\n| Product | Years |")


def test_a_table_its_words_matched_only_in_its_head_is_quoted_by_its_head_and_first_rows() -> None:
    rows = "\n".join(f"| team {n} | city {n} | {n} |" for n in range(40))
    table = replace(chunk(1, f"Stanley Cups\n| Team | Location | Stanley Cups |\n|---|---|---|\n{rows}"), type="table")
    prose = [chunk(i, f"The cup was lost in {1900 + i}. {FILLER}", doc=f"d{i}") for i in range(2, 6)]
    weights = {"stanley": 2.0, "cup": 1.0}
    packed = pack_evidence([*prose, table], weights, 200, max_blocks=3)
    assert packed.blocks[0].chunk.chunk_id == "c1"  # its head holds the rarer term: the best passage
    excerpt = packed.blocks[0].excerpt
    assert excerpt.startswith("Stanley Cups\n| Team | Location | Stanley Cups |\n|---|---|---|\n| team 0 |")
    assert "| team 39 |" not in excerpt  # the first rows, not the whole table


_WORDS = [
    "seal",
    "pump",
    "Seal",
    "3.5",
    "kb",
    "(ticket",
    "OPS-412)",
    "密封",
    "更换。",
    "end.",
    "why?",
    "—",
    "…",
    "\n",
    "\n\n",
]


@given(
    st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=60), min_size=1, max_size=6), st.integers(1, 400)
)
@settings(max_examples=80, deadline=None)
def test_the_counted_tokens_are_never_fewer_than_the_text_has_nor_over_the_budget(
    texts: list[list[str]], budget: int
) -> None:
    chunks = [chunk(i, " ".join(words).strip() or "seal", doc=f"d{i % 2}") for i, words in enumerate(texts)]
    packed = pack_evidence(chunks, {"seal": 2.0, "pump": 1.0, "密封": 1.0}, budget)
    assert count_tokens(packed.text) <= packed.tokens <= budget


_WINDOW_SCORES = """
from docshelf.search.packing import PACKING, _candidate, best_passage_scores
from docshelf.model import Chunk
texts = ["Alpha beta gamma delta.", "Delta gamma beta alpha.", "Gamma alpha delta beta."]
chunks = [Chunk(chunk_id=f"c{i}", document_id="d", namespace="ns", type="text", text=text, section_path=(), pages=(1,),
                token_count=8, ordinal=i, source_file_name="d.md") for i, text in enumerate(texts)]
weights = {"alpha": 0.1, "beta": 0.2, "gamma": 0.3, "delta": 0.7}
print(repr(best_passage_scores(chunks, weights)))
print(repr([_candidate(i, chunk, weights, PACKING, None, False).scores for i, chunk in enumerate(chunks)]))
"""


def test_passage_scores_do_not_depend_on_the_process_string_hashes() -> None:
    """A window's terms are a set, which iterates in the order of the process's string hashes: the same request
    served by two processes (two Lambda containers) must still score, and so rank and pack, alike."""
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _WINDOW_SCORES], env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True, text=True, check=True,
        ).stdout
        for seed in range(8)
    }  # fmt: skip
    assert len(outputs) == 1, outputs
