"""A query analyzed into the plans an engine executes (index/plan.py): each channel's terms, weights and the share of
them a chunk must match."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from docshelf.index.analyzer import analyze, analyze_path, is_trigram, normalize, raw_terms
from docshelf.index.plan import Channel, ChannelQuery, ExpansionPlan, QueryPlan, SearchFilters, term_weights
from docshelf.index.stopwords import without_question_words
from docshelf.scripts import has_cjk_letter
from docshelf.search.ranking import RANKING, RankingSettings

# Expansion terms found in the content of more than this share of a namespace's chunks are left out of the expanded
# query: no evidence under BM25, and the longest postings.
COMMON_SHARE = 0.5


def query_terms(query: str, ranking: RankingSettings = RANKING) -> dict[Channel, list[str]]:
    """Each channel's query terms in query order, repeats kept (`RankingSettings.repeat_weight` weighs them).

    The `term` channel (surface forms) only runs for queries that name something exact, a code, an
    identifier or a number; for plain words it would re-count the content channel's evidence unstemmed.
    Chinese question words are left out as the English ones are (index/stopwords.py), unless nothing else
    is left.
    """
    asked = without_question_words(normalize(query))
    analyzed = analyze(asked) or analyze(query)
    surface = raw_terms(query)
    queries: dict[Channel, list[str]] = {"content": analyzed, "path": analyze_path(asked) or analyze_path(query)}
    exact = [term for term in surface if not term.isalpha()]
    if exact:
        queries["term"] = surface if ranking.term_words else exact
    return queries


def required_matches(channel: Channel, distinct_terms: int, ranking: RankingSettings = RANKING, *,
                     cjk: bool = False) -> int:  # fmt: skip
    """The distinct terms a chunk must hold to be a candidate in a channel (`RankingSettings.path_min_share`, or
    `path_min_share_cjk` for a query with CJK terms, and `term_min_share` of them in those channels, one in the
    content channel)."""
    path_share = ranking.path_min_share_cjk if cjk else ranking.path_min_share
    share = {"path": path_share, "term": ranking.term_min_share}.get(channel, 0.0)
    return max(1, math.ceil(share * distinct_terms))


def has_cjk_term(terms: Iterable[str]) -> bool:
    """Whether any term holds a Chinese, Japanese or Korean letter (the analyzer cuts those into characters and
    pairs)."""
    return any(has_cjk_letter(term) for term in terms)


def channel_query(
    channel: Channel, terms: Sequence[str] | Mapping[str, float], ranking: RankingSettings = RANKING
) -> ChannelQuery:
    """A channel's query; in the term channel the query's character trigrams score but are not required (a chunk
    indexes only its first MAX_CHUNK_TRIGRAMS), its surface forms are."""
    weights = term_weights(terms if isinstance(terms, Mapping) else ranking.query_weights(terms))
    optional = frozenset(term for term in weights if is_trigram(term)) if channel == "term" else frozenset()
    required = required_matches(channel, len(weights) - len(optional), ranking, cjk=has_cjk_term(weights))
    return ChannelQuery(weights, required, optional)


def query_plan(
    queries: Mapping[Channel, Sequence[str]],
    filters: SearchFilters,
    limit: int,
    feedback: int,
    ranking: RankingSettings = RANKING,
) -> QueryPlan:
    channels = {channel: channel_query(channel, terms, ranking) for channel, terms in queries.items()}
    return QueryPlan(channels, filters, limit, feedback)


def expansion_plan(
    query: Mapping[str, float],
    expansion: Mapping[str, float],
    filters: SearchFilters,
    limit: int,
    fetch: Sequence[str],
) -> ExpansionPlan:
    min_match = required_matches("content", len(query.keys() | expansion.keys()))
    return ExpansionPlan(query, expansion, filters, limit, fetch, COMMON_SHARE, min_match)
