"""A sentence model in the packer (`pack_evidence(passage_model=…)`) and the local model as one
(`EmbeddingSimilarity`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from docshelf.embeddings.sentence_scores import CACHED_SENTENCES, EmbeddingSimilarity
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.search.model_vote import model_voted
from docshelf.search.packing import PACKING, best_sentences, pack_evidence
from docshelf.search.ranking import RANKING
from docshelf.search.request import SearchRequest
from docshelf.search.response import RankedChunk
from docshelf.search.service import cited_first, in_evidence_order, rank, search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens

SUBJECT = "The equine virus"
PAPER = (
    f"{SUBJECT} spreads among horses in the valley. {SUBJECT} was isolated from horses and mosquitoes. "
    "Cases are rare in winter. Most outbreaks end by autumn. "
    f"{SUBJECT} is lethal for as many as 35% of infected children. Vaccines exist for animals."
)
WEIGHTS = {"equin": 3.0, "virus": 1.0, "hors": 2.0, "mosquito": 2.0}


def chunk(i: int, text: str, doc: str = "d1") -> Chunk:
    return Chunk(
        chunk_id=f"c{i}", document_id=doc, namespace="ns", type="text", text=text, section_path=("Results",),
        pages=(2,), token_count=count_tokens(text), ordinal=i, source_file_name="paper.pdf",
    )  # fmt: skip


class Favourite:
    """A model that likes one sentence, and records what it was asked to read."""

    def __init__(self, liked: str) -> None:
        self.liked = liked
        self.read: list[list[str]] = []

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        self.read.append(list(texts))
        return [1.0 if self.liked in text else 0.0 for text in texts]


def test_the_model_puts_the_sentence_it_reads_as_the_answer_first() -> None:
    budget = 50  # room for one passage and its neighbours
    words_only = pack_evidence([chunk(0, PAPER)], WEIGHTS, budget)
    assert "35%" not in words_only.text and "mosquitoes" in words_only.text  # the words favour the horses
    model = Favourite("35%")
    packed = pack_evidence([chunk(0, PAPER)], WEIGHTS, budget, passage_model=model, query="how lethal for children")
    assert "35% of infected children" in packed.text and packed.tokens <= budget
    assert len(model.read) == 1 and any("35%" in text for text in model.read[0])


def test_the_model_reads_only_the_first_passages_by_their_words() -> None:
    chunks = [chunk(i, PAPER, doc=f"d{i}") for i in range(6)]  # 4 passages each
    model = Favourite("35%")
    pack_evidence(chunks, WEIGHTS, 400, passage_model=model, query="q", settings=replace(PACKING, model_depth=5))
    assert [len(texts) for texts in model.read] == [5]
    assert all(text in PAPER for text in model.read[0])  # one sentence each, the passage's matching one


def test_a_cjk_query_is_packed_by_its_words_alone(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [chunk(0, PAPER), chunk(1, "马病毒在美洲传播。马病毒对儿童致命。", doc="d2")])
    model = Favourite("35%")
    search(index, SearchRequest("ns", "马病毒", top_k=5), passage_model=model)
    assert model.read == []
    english = search(index, SearchRequest("ns", "equine virus horses", top_k=5, max_tokens=50), passage_model=model)
    assert model.read and "35%" in english.evidence_text


VECTORS = {"horse": (1.0, 0.0), "pony": (0.6, 0.8), "car": (0.0, 1.0)}


class UnitVectors:
    """An embedder whose vectors are known: a text's vector is that of its first word."""

    def __init__(self) -> None:
        self.embedded: list[str] = []
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return np.array(VECTORS[text.split()[0]])

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += texts
        return np.array([VECTORS[text.split()[0]] for text in texts])


def test_embedding_similarity_is_the_cosine_and_embeds_a_sentence_once() -> None:
    embedder = UnitVectors()
    similarity = EmbeddingSimilarity(embedder)
    assert similarity.scores("horse", ["horse a", "pony b", "car c"]) == [1.0, 0.6, 0.0]
    assert similarity.scores("pony", ["pony b", "horse a", "pony b"]) == [1.0, 0.6, 1.0]
    assert similarity.scores("horse", ["car c"]) == [0.0]
    assert embedder.embedded == ["horse a", "pony b", "car c"]
    assert embedder.queries == ["horse", "pony"]  # a query asked again is not embedded again
    assert similarity.scores("car", []) == []


def test_embedding_similarity_keeps_the_sentences_scored_last() -> None:
    embedder = UnitVectors()
    similarity = EmbeddingSimilarity(embedder)
    similarity.scores("horse", [f"horse {n}" for n in range(CACHED_SENTENCES + 1)])
    similarity.scores("horse", ["horse 0", f"horse {CACHED_SENTENCES}"])
    assert embedder.embedded[CACHED_SENTENCES + 1 :] == ["horse 0"]  # the oldest went; the newest stayed


def ranked(chunks: Sequence[Chunk]) -> list[RankedChunk]:
    return [RankedChunk(c, 1.0 / (60 + at + 1), {"content": at}) for at, c in enumerate(chunks)]


def test_the_model_vote_raises_the_result_whose_passage_says_what_was_asked() -> None:
    chunks = [
        chunk(0, "The equine virus spreads among horses. The equine virus is carried by mosquitoes.", doc="d0"),
        chunk(1, "The equine virus was found in horses of the valley.", doc="d1"),
        chunk(2, "The equine virus kills a third of infected children.", doc="d2"),
        chunk(3, "Shipping cartons are stacked on pallets.", doc="d3"),  # no passage: last in the model's order
    ]
    model = Favourite("children")
    voted = model_voted(ranked(chunks), "q", WEIGHTS, model, weight=2.0, sentences=2, rrf_k=60)
    assert [r.chunk.chunk_id for r in voted] == ["c2", "c0", "c1", "c3"]
    assert [score for r in voted for score in [r.score]] == sorted((r.score for r in voted), reverse=True)
    assert [len(texts) for texts in model.read] == [4]  # two best passages of c0, the one of c1 and of c2
    assert model_voted(ranked(chunks), "q", WEIGHTS, model, weight=0.0, sentences=2, rrf_k=60) == ranked(chunks)


def test_a_search_with_a_passage_model_reads_30_results_and_returns_top_k(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = [f"The equine virus report {n} covers horses in region {n}." for n in range(40)]
    texts[35] = "The equine virus report on children: a third of infected kids died."
    index.upsert("ns", "d1", "r", [chunk(n, text, doc="d1") for n, text in enumerate(texts)])
    model = Favourite("kids")
    words_only = [r.chunk.chunk_id for r in search(index, SearchRequest("ns", "equine virus report", top_k=40)).results]
    with_model = search(index, SearchRequest("ns", "equine virus report", top_k=30), passage_model=model)
    assert len(model.read[0]) == 30  # the vote read the first 30 results' best passages, one each here
    order = [r.chunk.chunk_id for r in with_model.results]
    assert len(order) == 30 and order.index("c35") < words_only.index("c35")  # raised
    assert [cid for cid in order if cid != "c35"] == [cid for cid in words_only if cid != "c35"][:29]
    few = search(index, SearchRequest("ns", "equine virus report", top_k=3), passage_model=Favourite("kids"))
    assert len(few.results) == 3


TORQUES = (
    "Tighten the flange bolts crosswise.\n| Bolt size | Torque (Nm) | Pattern |\n|---|---|---|\n"
    "| M10 | 45 | crosswise |\n| M12 | 80 | crosswise, two passes |"
)


def test_the_model_reads_a_table_row_under_its_column_names() -> None:
    table = replace(chunk(0, TORQUES), type="table")
    texts, owners = best_sentences([table], {"m12": 2.0, "torqu": 1.0}, 2)
    assert texts == ["Bolt size: M12; Torque (Nm): 80; Pattern: crosswise, two passes"] and owners == [0]
    prose = chunk(1, "The M12 bolts take a torque of 80 Nm. | not a table row |")
    assert best_sentences([prose], {"m12": 2.0}, 1)[0] == ["The M12 bolts take a torque of 80 Nm."]


def test_a_table_matched_only_in_its_head_is_read_by_its_caption_and_first_row() -> None:
    table = replace(chunk(0, TORQUES), type="table")
    texts, owners = best_sentences([table, chunk(1, "Shipping cartons.")], {"torqu": 1.0}, 2)
    assert texts == ["Tighten the flange bolts crosswise. Bolt size: M10; Torque (Nm): 45; Pattern: crosswise"]
    assert owners == [0]  # the chunk with no match and no table head gives the model nothing to read


def test_embedding_similarity_serves_many_threads_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import time
    from concurrent.futures import ThreadPoolExecutor

    from docshelf.embeddings import sentence_scores

    class Slow(UnitVectors):
        def embed_query(self, text: str) -> np.ndarray:
            time.sleep(0.0005)  # another thread runs meanwhile, as while the model computes
            return super().embed_query(text)

    monkeypatch.setattr(sentence_scores, "CACHED_SENTENCES", 4)
    monkeypatch.setattr(sentence_scores, "CACHED_QUERIES", 1)
    similarity = EmbeddingSimilarity(Slow())

    def ask(n: int) -> list[float]:
        return similarity.scores(["horse", "pony", "car"][n % 3], [f"horse {n}", f"pony {n}", "car c"])

    with ThreadPoolExecutor(8) as threads:
        answers = list(threads.map(ask, range(400)))
    expected = {0: [1.0, 0.6, 0.0], 1: [0.6, 1.0, 0.8], 2: [0.0, 0.8, 1.0]}
    assert all(answer == pytest.approx(expected[n % 3]) for n, answer in enumerate(answers))


def _long_paper(tmp_path: Path) -> EmbeddedIndex:
    """Eleven chunks the words favour (the subject, often) and, after them, the one that answers."""
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = [
        f"The equine virus spreads among horses in valley {n}. Horses carry the equine virus there." for n in range(11)
    ]
    texts.append("Cases are rare in winter. The equine virus is lethal for as many as 35% of infected children.")
    index.upsert("ns", "d1", "r", [chunk(n, text) for n, text in enumerate(texts)])
    return index


def test_with_a_passage_model_the_evidence_quotes_a_later_chunk_and_the_results_name_it(tmp_path: Path) -> None:
    index = _long_paper(tmp_path)
    request = SearchRequest("ns", "equine virus horses valley", top_k=3, max_tokens=120)
    quiet = replace(RANKING, model_vote_weight=0.0)  # the answer's chunk stays after the first three
    words_only = search(index, request, quiet)
    assert "c11" not in [r.chunk.chunk_id for r in words_only.results] and "35%" not in words_only.evidence_text
    answered = search(index, request, quiet, passage_model=Favourite("35%"))
    assert "35% of infected children" in answered.evidence_text
    ids = [r.chunk.chunk_id for r in answered.results]
    # The results are the quoted chunks in the order the packer chose their passages: the subject's first chunk,
    # then the answer the model read, then the next by the words (ranked before it).
    assert ids == ["c0", "c11", "c1"]
    assert set(answered.cited) <= set(ids)  # every [n] names a result
    scores = [r.score for r in answered.results]
    assert scores == sorted(scores, reverse=True)


def test_results_follow_the_evidence_only_where_long_documents_are_read_by_the_model(tmp_path: Path) -> None:
    """The sentence model's passages order the results of long documents; the words alone, or abstracts, keep the
    fused order."""
    request = SearchRequest("ns", "equine virus horses valley", top_k=12, max_tokens=2000)
    quiet = replace(RANKING, model_vote_weight=0.0)
    index = _long_paper(tmp_path / "paper")
    assert [r.chunk.chunk_id for r in search(index, request, quiet).results][-1] == "c11"
    read = [r.chunk.chunk_id for r in search(index, request, quiet, passage_model=Favourite("35%")).results]
    assert read[:3] == ["c0", "c11", "c1"]
    abstracts = EmbeddedIndex(LocalStore(tmp_path / "abstracts"))
    for n in range(12):
        text = "The equine virus is lethal for 35% of infected children." if n == 11 else f"Horses of valley {n}."
        abstracts.upsert(
            "ns", f"d{n}", "r", [replace(chunk(0, f"The equine virus. {text}", doc=f"d{n}"), chunk_id=f"c{n}")]
        )
    by_model = search(abstracts, request, quiet, passage_model=Favourite("35%"))
    assert [r.chunk.chunk_id for r in by_model.results] == [
        r.chunk.chunk_id for r in search(abstracts, request, quiet).results
    ]


def test_by_the_words_alone_the_results_keep_the_fused_order(tmp_path: Path) -> None:
    """Chunks that repeat the query's words outrank the one sentence holding all of them; the packer quotes that
    sentence first, but without the sentence model the results keep the fused order (the packer's order by the words
    alone lost on XQuAD en)."""
    filler = "Nothing else happens on this page. The weather was mild. "
    texts = [
        f"Pump pump pump in hall {n}. {filler * 2}Seal seal seal in hall {n}. {filler * 2}Leak leak in hall {n}."
        for n in range(10)
    ]
    texts.append(f"{filler * 12}The pump seal leak in hall 10 was fixed. {filler * 12}")
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [chunk(n, text) for n, text in enumerate(texts)])
    request = SearchRequest("ns", "pump seal leak", top_k=10, max_tokens=2000)
    found = search(index, request)
    ranked = rank(index, request)
    assert [r.chunk.chunk_id for r in found.results] == [r.chunk.chunk_id for r in ranked.results]
    assert found.results[0].chunk.chunk_id != "c10" and "c10" in found.cited
    packed = pack_evidence([r.chunk for r in ranked.results], ranked.term_weights, 2000)
    assert min(packed.blocks, key=lambda block: block.priority).chunk.chunk_id == "c10"


def test_in_evidence_order_puts_the_quoted_results_first_by_priority_with_falling_scores() -> None:
    rows = [RankedChunk(chunk(i, PAPER), 1.0 / (i + 1), {"content": i}) for i in range(5)]
    moved = in_evidence_order(rows, {"c3": 0, "c1": 1})
    assert [r.chunk.chunk_id for r in moved] == ["c3", "c1", "c0", "c2", "c4"]
    assert [r.score for r in moved] == [r.score for r in rows]  # each takes the score of its new place
    assert moved[0].channel_ranks == {"content": 3}  # what the chunk itself carries moves with it
    assert in_evidence_order(rows, {}) == rows


def test_the_evidence_of_abstracts_quotes_only_the_results(tmp_path: Path) -> None:
    """Short documents (first chunks): the vote is not cast, and the evidence stays within top_k."""
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = [f"The equine virus spreads among horses in valley {n}. Horses carry it." for n in range(11)]
    texts.append("The equine virus is lethal for as many as 35% of infected children.")
    for n, text in enumerate(texts):
        index.upsert("ns", f"d{n}", "r", [replace(chunk(0, text, doc=f"d{n}"), chunk_id=f"c{n}")])
    request = SearchRequest("ns", "equine virus horses valley", top_k=3, max_tokens=120)
    found = search(index, request, replace(RANKING, model_vote_weight=0.0), passage_model=Favourite("35%"))
    assert "c11" not in [r.chunk.chunk_id for r in found.results] and "35%" not in found.evidence_text


def test_the_packer_quotes_at_most_max_blocks_chunks() -> None:
    chunks = [chunk(i, PAPER, doc=f"d{i}") for i in range(6)]
    packed = pack_evidence(chunks, WEIGHTS, 2000, max_blocks=2)
    assert len(packed.blocks) == 2 and {b.chunk.chunk_id for b in packed.blocks} == {"c0", "c1"}
    assert len(pack_evidence(chunks, WEIGHTS, 2000).blocks) == 6


def test_cited_first_keeps_the_count_and_the_rank_order() -> None:
    rows = [RankedChunk(chunk(i, PAPER), 1.0 / (i + 1), {}) for i in range(6)]
    results, further = rows[:3], rows[3:]
    assert cited_first(results, further, {"c0", "c2"}) == results  # nothing quoted from further: as ranked
    kept = cited_first(results, further, {"c1", "c4"})
    assert [r.chunk.chunk_id for r in kept] == ["c0", "c1", "c4"]
    assert [r.chunk.chunk_id for r in cited_first(results, further, {"c3", "c4", "c5"})] == ["c3", "c4", "c5"]


def test_an_agentic_search_of_one_question_gives_the_evidence_of_classic_search(tmp_path: Path) -> None:
    """A plan of one search searches the question as asked, votes and packs as classic search does: the same
    evidence, quoting a voted chunk after the step's top_k, and results of top_k chunks, every cited one among
    them."""
    from docshelf.agentic.service import AgenticRun, agentic_search
    from docshelf.agentic.steps import StepContext

    index = _long_paper(tmp_path)
    quiet = replace(RANKING, model_vote_weight=0.0)
    question = "equine virus in horses of the valley?"
    model = Favourite("35%")
    classic = search(index, SearchRequest("ns", question, top_k=3, max_tokens=120), quiet, passage_model=model)
    ctx = StepContext(index, "ns", 3, ranking=quiet, passage_model=model)
    answered = agentic_search(ctx, AgenticRun(question, 120))
    assert answered["plan"]["steps"][0]["query"] == question
    assert "35% of infected children" in classic.evidence_text
    assert answered["evidence_text"] == classic.evidence_text
    ids = [result["chunk_id"] for result in answered["results"]]
    assert len(ids) == 3 and "c11" in ids
    assert {r["chunk_id"] for r in answered["results"] if r["evidence_ref"]} == set(classic.cited)
    words_only = agentic_search(replace(ctx, passage_model=None), AgenticRun(question, 120))
    assert "35%" not in words_only["evidence_text"]
    for budget in range(40, 200, 3):  # the whole budget, as classic search packs it: the same text at every budget
        agentic = agentic_search(ctx, AgenticRun(question, budget))["evidence_text"]
        assert agentic == search(index, SearchRequest("ns", question, top_k=3, max_tokens=budget), quiet,
                                 passage_model=model).evidence_text, budget  # fmt: skip
