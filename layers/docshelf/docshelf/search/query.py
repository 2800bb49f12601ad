"""A query analyzed into the plans an engine executes (index/plan.py): each channel's terms, weights and the share of
them a chunk must match."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from docshelf.index.analyzer import analyze, normalize, raw_terms
from docshelf.index.plan import Channel, ChannelQuery, ExpansionPlan, QueryPlan, SearchFilters, term_weights
from docshelf.index.stopwords import without_question_words

# The share of a query's distinct terms a chunk must match to be a candidate in a channel.
# A file name or section title that shares one word with a long question is weak evidence,
# yet RRF would give its rank 0 a full vote; half the terms makes a path match mean something.
MIN_MATCH: dict[Channel, float] = {"content": 0.0, "path": 0.5, "term": 0.0}
# Expansion terms found in the content of more than this share of a namespace's chunks are left out of the expanded
# query: no evidence under BM25, and the longest postings.
COMMON_SHARE = 0.5


def query_terms(query: str) -> dict[Channel, list[str]]:
    """Each channel's distinct query terms in query order.

    A query term counts once: a long question that repeats a word is not asking for it twice. The
    `term` channel (surface forms) only runs for queries that name something exact, a code, an
    identifier or a number; for plain words it would re-count the content channel's evidence unstemmed.
    Chinese question words are left out as the English ones are (index/stopwords.py), unless nothing else
    is left.
    """
    analyzed = list(dict.fromkeys(analyze(without_question_words(normalize(query))) or analyze(query)))
    surface = list(dict.fromkeys(raw_terms(query)))
    queries: dict[Channel, list[str]] = {"content": analyzed, "path": analyzed}
    if any(not term.isalpha() for term in surface):
        queries["term"] = surface
    return queries


def required_matches(channel: Channel, distinct_terms: int) -> int:
    return max(1, math.ceil(MIN_MATCH[channel] * distinct_terms))


def channel_query(channel: Channel, terms: Sequence[str] | Mapping[str, float]) -> ChannelQuery:
    weights = term_weights(terms)
    return ChannelQuery(weights, required_matches(channel, len(weights)))


def query_plan(
    queries: Mapping[Channel, Sequence[str]], filters: SearchFilters, limit: int, feedback: int
) -> QueryPlan:
    channels = {channel: channel_query(channel, terms) for channel, terms in queries.items()}
    return QueryPlan(channels, filters, limit, feedback)


def expansion_plan(
    query: Mapping[str, float],
    expansion: Mapping[str, float],
    filters: SearchFilters,
    limit: int,
    fetch: Sequence[str],
) -> ExpansionPlan:
    weights = term_weights({**query, **expansion})
    min_match = required_matches("content", len(weights))
    return ExpansionPlan(query, expansion, filters, limit, fetch, COMMON_SHARE, min_match)
