"""The constants of the ranking, in one frozen value: `RANKING` holds the defaults every search uses.

They were chosen by leave-one-collection-out over the development sets (bench/ranking_study.py; the table is in
docs/evaluation.md "How a query is ranked"); a study passes other values to `search.service.search` to compare them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from docshelf.search.hits import HitPrior


@dataclass(frozen=True, slots=True)
class RankingSettings:
    content_weight: float = 2.0
    path_weight: float = 1.0
    term_weight: float = 1.5
    expansion_weight: float = 0.75
    # The semantic channel (chunk vectors nearest the query's), run when the namespace holds vectors and the search
    # has the namespace's embedding provider; 0 turns it off. 2.0 is chosen on every leave-one-collection-out fold
    # of weights 0-2 with all-MiniLM-L6-v2 (docs/evaluation.md "How a query is ranked").
    semantic_weight: float = 2.0
    # Whether it runs for a query in Han, kana or hangul (search/semantic.py): on the Chinese sets all-MiniLM-L6-v2
    # lowers MRR by 0.14-0.37 at weights 0.5-2, and the Chinese bge-small-zh-v1.5 lowers it too.
    semantic_cjk: bool = False
    # A query's semantic weight is semantic_weight x (1 - c) ** semantic_adapt, c the idf-weighted share of its
    # content terms that the best content chunk holds: the vectors count less where the words already found a chunk
    # holding the whole query (0: a fixed weight). 2 is the one setting of the study at or above the lexical ranking
    # on every development set (docs/evaluation.md "How a query is ranked").
    semantic_adapt: float = 2.0
    rrf_k: int = 60
    # k3 of the query-term saturation (k3 + 1) * qtf / (k3 + qtf) (Robertson et al., Okapi at TREC-3): 0 counts a
    # repeated term once, math.inf counts every repeat in full (rank-bm25).
    repeat_saturation: float = 8.0
    # The share of a query's distinct terms a chunk must hold to be ranked by the path and the term channel. A file
    # name or section title sharing one word with a long question is weak evidence, yet RRF gives its rank 0 a full
    # vote; the term channel re-counts the content channel's evidence unless the chunk holds every exact form. The
    # path channel votes only for a query its file name or section path holds whole (a query naming a document):
    # at half the terms, long questions over papers whose titles share their words put every chunk of the wrong
    # paper first (docs/evaluation/evidence.md). A query with Chinese, Japanese or Korean terms counts characters
    # and their overlapping pairs, of which a title holding the query's words holds about half (有給休暇は何日 and
    # 第6条（年次有給休暇）: 7 of 12), so half of them is enough there; asking for all cost CMRC 2018 MRR@10.
    path_min_share: float = 1.0
    path_min_share_cjk: float = 0.5
    term_min_share: float = 1.0
    # Whether the term channel's query (run only for a query naming a code, identifier or number) also holds the
    # query's plain words, unstemmed, or only its exact forms.
    term_words: bool = True
    feedback_chunks: int = 10
    expansion_terms: int = 10
    original_weight: float = 0.5
    # The hit boost (search/hits.py): the fused score of a chunk the content channel ranked with at least hit_floor of
    # the best content score gains min(hit_cap, hit_weight x ln(1 + h)), h its hits in the namespace's evidence,
    # halving every 30 days; hit_depth fused chunks are looked up. 0 turns it off. Chosen on the covidqa_dev replay
    # (bench/hits_bench.py, docs/reference.md "Hit boost").
    hit_weight: float = 0.002
    hit_cap: float = 0.006
    hit_floor: float = 0.6
    hit_depth: int = 50
    # The passage vote (search/passage_vote.py): each of the first passage_vote_depth fused results gains
    # passage_vote_weight / (rrf_k + r + 1), r the rank of its best passage among them; 0 turns it off. Weight 1 is
    # the one of 1, 2 and 4 at or above no vote on every development set with the best mean, depth 30 above 20
    # (docs/evaluation/evidence.md, "A passage vote across documents").
    passage_vote_weight: float = 1.0
    passage_vote_depth: int = 30
    # The model vote (search/model_vote.py), cast with a passage model only (`--passage-model local`): each of the
    # first model_vote_depth results gains model_vote_weight / (rrf_k + r + 1), r the rank of the model's best score
    # of its model_vote_sentences best passages (by their words) among them. Weight 3 is the pick of four of five
    # leave-one-collection-out folds over weights 0.25-6 on the five English sets, 4 of the fifth; every weight up to
    # 4 is above no vote on every set (docs/evaluation/evidence.md, "A vote from the sentence model").
    model_vote_weight: float = 3.0
    model_vote_depth: int = 30
    model_vote_sentences: int = 2
    # Where the passage vote was cast (long documents) and a passage model reads the query, the evidence may quote the
    # first evidence_depth voted chunks, not only the top_k results: an answer in a long paper is often in the 11th to
    # 30th (search/service.py; docs/evaluation/evidence.md, "Evidence from the first 30 chunks").
    evidence_depth: int = 30

    def channel_weights(self) -> dict[str, float]:
        return {
            "content": self.content_weight,
            "path": self.path_weight,
            "term": self.term_weight,
            "expansion": self.expansion_weight,
            "semantic": self.semantic_weight,
        }

    def hit_prior(self) -> HitPrior:
        return HitPrior(self.hit_weight, self.hit_cap)

    def repeat_weight(self, count: float) -> float:
        """The weight of a query term written `count` times."""
        k3 = self.repeat_saturation
        if math.isinf(k3):
            return count
        return (k3 + 1) * count / (k3 + count) if count > 0 else 0.0

    def query_weights(self, terms: Sequence[str]) -> dict[str, float]:
        """Each distinct term of `terms` (in order) with its saturated repeat weight."""
        return {term: self.repeat_weight(count) for term, count in Counter(terms).items()}


RANKING = RankingSettings()
