"""Abbreviations a text defines (search/abbreviations.py), and a passage that answers with one."""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.agentic.steps import StepContext
from docshelf.index.analyzer import analyze
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.search import service
from docshelf.search.abbreviations import aliases, definitions
from docshelf.search.passages import sentence_terms
from docshelf.search.request import SearchRequest
from docshelf.search.sentences import matched_terms
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Venezuelan equine encephalitis virus (VEEV) is an alphavirus.",
            {"VEEV": "Venezuelan equine encephalitis virus"},
        ),
        (
            "It is the Middle East respiratory syndrome coronavirus (MERS-CoV).",
            {"MERS-CoV": "Middle East respiratory syndrome coronavirus"},
        ),
        ("Patients got hydroxychloroquine (HCQ) daily.", {"HCQ": "hydroxychloroquine"}),
        ("A monoclonal antibody (mAb) was given.", {"mAb": "monoclonal antibody"}),
        ("Weight was scaled by the body mass index (BMI) of each child.", {"BMI": "body mass index"}),
        ("We measured interleukin 6 (IL-6) levels.", {"IL-6": "interleukin 6"}),
        ("The Environmental Protection Agency (EPA) issued a rule.", {"EPA": "Environmental Protection Agency"}),
        # the long form stops at the sentence: "Results." is not part of it
        ("Results. Reverse transcription PCR (RT-PCR) was used.", {"RT-PCR": "Reverse transcription PCR"}),
    ],
)
def test_a_long_form_and_its_short_form_in_brackets_are_a_definition(text: str, expected: dict[str, str]) -> None:
    assert definitions(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The results (see Table 1) were good.",
        "The effect was large (p < 0.05).",
        "Cases rose in 2019 (Figure 2).",
        "She was born in Rome (Italy) in 1950.",
        "Wines from Iberia, Tuscany and Lombardy (Italy) were tasted.",  # a name, though its letters are there
        "Three groups (A, B and C) were formed.",
        "The protein (a kinase) binds DNA.",
        "Measured in the cold (4 °C).",
        "A new rule (EPA) was issued.",  # no words before it that spell the short form
    ],
)
def test_brackets_that_define_nothing_are_no_definition(text: str) -> None:
    assert definitions(text) == {}


def test_a_definition_counts_for_a_query_that_holds_its_whole_long_form() -> None:
    texts = ["Venezuelan equine encephalitis virus (VEEV) infects horses. The World Health Organization (WHO) said."]
    asked = dict.fromkeys(analyze("symptoms of Venezuelan equine encephalitis virus"), 1.0)
    assert aliases(texts, asked) == {"veev": ("venezuelan", "equin", "enceph", "virus")}
    assert aliases(texts, dict.fromkeys(analyze("symptoms of equine encephalitis"), 1.0)) == {}  # part of it only
    assert aliases(texts, dict.fromkeys(analyze("VEEV in Venezuelan equine encephalitis virus"), 1.0)) == {}  # asked
    # A short form of two words, or one whose term is a letter, stands for nothing: "b" is in "hepatitis B" too.
    bats = ["Among infected bats (I B) and infected hosts (I-H) the rate fell."]
    assert dict(definitions(bats[0])) == {"I B": "infected bats", "I-H": "infected hosts"}
    assert aliases(bats, dict.fromkeys(analyze("how many infected bats and infected hosts"), 1.0)) == {
        "i-h": ("infect", "host")
    }


def test_a_sentence_holding_the_short_form_holds_the_long_form_s_terms_once() -> None:
    veev = {"veev": ("venezuelan", "equin", "enceph", "virus")}
    wanted = {"symptom", "venezuelan", "equin", "enceph", "virus"}
    text = "In humans, VEEV causes fever. Symptoms of VEEV, the Venezuelan equine encephalitis virus, vary. No more."
    assert matched_terms(text, wanted) == [frozenset(), {"symptom", "venezuelan", "equin", "enceph", "virus"}, set()]
    assert matched_terms(text, wanted, veev) == [
        {"venezuelan", "equin", "enceph", "virus"},
        {"symptom", "venezuelan", "equin", "enceph", "virus"},
        set(),
    ]
    # The passage windows count each occurrence (term frequency): the second sentence names the virus twice.
    assert [sorted(terms) for terms in sentence_terms(text, wanted, veev)] == [
        ["enceph", "equin", "venezuelan", "virus"],
        ["enceph", "enceph", "equin", "equin", "symptom", "venezuelan", "venezuelan", "virus", "virus"],
        [],
        [],
    ]
    assert [sorted(terms) for terms in sentence_terms(text, wanted)] == [
        [],
        ["enceph", "equin", "symptom", "venezuelan", "virus"],
        [],
        [],
    ]


def _paper_chunk(ordinal: int, text: str, document: str = "veev") -> Chunk:
    return Chunk(
        chunk_id=f"{document}-{ordinal}", document_id=document, namespace="ns", type="text", text=text,
        section_path=("Results",), pages=(ordinal + 1,), token_count=count_tokens(text), ordinal=ordinal,
        source_file_name=f"{document}.pdf",
    )  # fmt: skip


_PAPER = [
    "Venezuelan equine encephalitis virus (VEEV) is an alphavirus of the Americas. Venezuelan equine encephalitis "
    "virus infects horses and humans.",
    "VEEV is carried by mosquitoes and kept in rodents. The Venezuelan equine encephalitis virus genome is a "
    "positive-strand RNA.",
    "In humans, VEEV causes a febrile illness with fever, malaise and vomiting. Neurological symptoms such as "
    "confusion follow in some cases.",
    "The Venezuelan equine encephalitis virus capsid binds host importins. Venezuelan equine encephalitis virus "
    "replicates in astrocytes.",
]
_OTHERS = [
    "Influenza symptoms include cough and sore throat in most adults.",
    "Dengue virus is carried by mosquitoes in the tropics.",
    "Equine influenza virus spreads quickly between horses.",
]


def test_a_passage_written_with_the_short_form_answers_a_question_asked_with_the_long_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "veev", "r", [_paper_chunk(i, text) for i, text in enumerate(_PAPER)])
    for i, text in enumerate(_OTHERS):
        index.upsert("ns", f"other{i}", "r", [_paper_chunk(1, text, f"other{i}")])
    request = SearchRequest(
        "ns", "What are the symptoms of Venezuelan equine encephalitis virus?", top_k=3, max_tokens=80
    )
    response = search(index, request)
    first = response.evidence_text.split("\n[2]")[0]
    assert "fever, malaise and vomiting" in first
    # The agentic search of the one question packs its step as classic search does, with the same definitions.
    answered = agentic_search(StepContext(index, "ns", 3), AgenticRun(request.query, request.max_tokens))
    assert answered["evidence_text"] == response.evidence_text
    # Without the definition, the sentences naming the virus in full come first and fill the budget.
    monkeypatch.setattr(service, "aliases", lambda texts, weights: {})
    assert "fever, malaise" not in search(index, request).evidence_text.split("\n[2]")[0]
