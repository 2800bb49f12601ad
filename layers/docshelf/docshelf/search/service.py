"""One search, the ranker: channels ranked by the index, fused by RRF, rendered as cited evidence (the request is
`request.py`, the response and its wire form `response.py`)."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Protocol

from docshelf.assets.links import AssetLink, image_asset
from docshelf.errors import IndexBackendError
from docshelf.index.analyzer import analyze, normalize
from docshelf.index.base import FirstPass, SearchBackend
from docshelf.index.plan import Channel, SemanticQuery
from docshelf.model import Chunk
from docshelf.search.abbreviations import Aliases, aliases
from docshelf.search.confidence import GOOD_MATCH, confidence, query_weights, term_share
from docshelf.search.corrections import SPELLING_RULE, corrections, misspelt, typed_words
from docshelf.search.empty import check_budget, empty_reason
from docshelf.search.expansion import expansion_parts
from docshelf.search.hits import HitReader, boosted, candidates
from docshelf.search.model_vote import model_voted
from docshelf.search.packing import PACKING, PackingSettings, pack_evidence
from docshelf.search.passage_vote import may_vote, passage_voted, votes_on
from docshelf.search.passages import siblings_by_passage
from docshelf.search.query import expansion_plan, query_plan, query_terms
from docshelf.search.ranking import RANKING, RankingSettings
from docshelf.search.request import MAX_TOP_K, SearchRequest
from docshelf.search.rerank import DEFAULT_DEPTH, Reranker, model_identity, reading_model, reranked, with_rerank_scores
from docshelf.search.response import RankedChunk, SearchResponse
from docshelf.search.rrf import fuse_rrf
from docshelf.search.semantic import QueryEmbedder, semantic_query
from docshelf.search.sentences import held_terms

_log = logging.getLogger(__name__)

# Chunks each channel ranks for the fusion (top_k x 5 when more): 100 rather than 50 raised every English set and left
# the Chinese ones as they were (docs/evaluation/evidence.md, "Evidence from the first 30 chunks").
MIN_CANDIDATES = 100
# Chunks fetched along with the expansion pass beyond top_k, in case expansion reorders the first pass.
LIKELY_RESULTS_MARGIN = 4
# The word channels' weights in a corrected search beside the semantic channel: small enough that no fusion of
# them reaches the semantic channel's last rank (2 / (60 + limit)), so they only order what it did not rank.
CORRECTED_UNDER_SEMANTIC = 1e-4


def search(
    index: SearchBackend,
    request: SearchRequest,
    ranking: RankingSettings = RANKING,
    *,
    asset_link: AssetLink | None = None,
    embedder: QueryEmbedder | None = None,
    hits: HitReader | None = None,
    packing: PackingSettings = PACKING,
    reranker: Reranker | None = None,
    rerank_depth: int = DEFAULT_DEPTH,
    passage_model: Reranker | None = None,
) -> SearchResponse:
    """`request` answered with the ranking's constants (the defaults unless a study compares others): its results
    (`rank`) and their evidence under `max_tokens`. With `asset_link`, image chunks link to their asset (a path, a
    presigned URL) in the evidence and results. With `passage_model`, the evidence's first passages also take its
    scores (search/packing.py), for queries it reads."""
    started = time.perf_counter()
    found = rank(
        index, request, ranking, embedder=embedder, hits=hits, reranker=reranker, rerank_depth=rerank_depth,
        passage_model=passage_model,
    )  # fmt: skip
    pool = [*found.results, *found.further]
    assets = _asset_links(pool, asset_link)
    packed = pack_evidence(
        [r.chunk for r in pool],
        found.term_weights,
        request.max_tokens,
        assets=assets,
        deferred=expansion_only(pool),
        settings=packing,
        passage_model=found.passage_model,
        query=request.query,
        max_blocks=request.top_k,
        aliases=found.aliases,
    )
    ranked = cited_first(found.results, found.further, {block.chunk.chunk_id for block in packed.blocks})
    if found.passage_led:
        ranked = in_evidence_order(ranked, {block.chunk.chunk_id: block.priority for block in packed.blocks})
    shown = {r.chunk.chunk_id for r in ranked}
    assets = {chunk_id: link for chunk_id, link in assets.items() if chunk_id in shown}
    return SearchResponse(
        evidence_text=packed.text,
        assets=assets,
        results=ranked,
        total_chunks=found.total_chunks,
        took_ms=round((time.perf_counter() - started) * 1000, 3),
        evidence_chunks=len(packed.blocks),
        evidence_tokens=packed.tokens,
        corrections=found.corrections,
        query=request.query,
        empty_reason=found.empty_reason,
        cited={block.chunk.chunk_id: (block.number, block.excerpt) for block in packed.blocks},
        good_match=any(r.confidence >= GOOD_MATCH for r in ranked),
        term_weights=found.term_weights,
        passage_model=model_identity(found.passage_model),
    )


def cited_first(
    results: Sequence[RankedChunk], further: Sequence[RankedChunk], cited: Collection[str]
) -> list[RankedChunk]:
    """As many results as `results`, in rank order: every chunk the evidence quotes (`further` may hold some), then
    the best of the others, so that each `[n]` of the evidence names a result."""
    if not any(r.chunk.chunk_id in cited for r in further):
        return list(results)
    room = len(results) - sum(r.chunk.chunk_id in cited for r in [*results, *further])
    kept = []
    for result in results:
        if result.chunk.chunk_id not in cited and room > 0:
            kept.append(result)
            room -= 1
        elif result.chunk.chunk_id in cited:
            kept.append(result)
    return kept + [r for r in further if r.chunk.chunk_id in cited]


def in_evidence_order(ranked: Sequence[RankedChunk], priority: Mapping[str, int]) -> list[RankedChunk]:
    """The results the evidence quotes, in the order the packer chose their first passages (`priority`, best
    first), then the others as ranked; each takes the score of the place it moves to, so scores still fall down the
    list."""
    quoted = sorted((r for r in ranked if r.chunk.chunk_id in priority), key=lambda r: priority[r.chunk.chunk_id])
    order = quoted + [r for r in ranked if r.chunk.chunk_id not in priority]
    return [replace(moved, score=place.score) for moved, place in zip(order, ranked, strict=True)]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A search's results without their evidence (`rank`)."""

    results: list[RankedChunk]
    total_chunks: int
    corrections: dict[str, str]
    empty_reason: str
    term_weights: dict[str, float]  # the query's content terms, as packing weighs them
    passage_model: Reranker | None  # the sentence model that read the query, None for the words alone
    further: list[RankedChunk]  # the chunks after `results` the evidence may also quote (long documents only)
    # Long documents read by the sentence model: the evidence's passages order the results (`in_evidence_order`)
    passage_led: bool = False
    # Short forms the candidates define for a long form the query holds (search/abbreviations.py), for the evidence
    aliases: Aliases = field(default_factory=dict)


def rank(
    index: SearchBackend,
    request: SearchRequest,
    ranking: RankingSettings = RANKING,
    *,
    embedder: QueryEmbedder | None = None,
    hits: HitReader | None = None,
    reranker: Reranker | None = None,
    rerank_depth: int = DEFAULT_DEPTH,
    passage_model: Reranker | None = None,
) -> Ranked:
    """`search` up to its evidence: the results, best first, with their confidence, at least `min_score`. With
    `embedder` (the namespace's embedding provider), a namespace holding vectors is also ranked by the semantic
    channel (search/semantic.py). With `hits` (the namespace's hit statistics), chunks the namespace's evidence
    often held are boosted (search/hits.py). With `passage_model` (a sentence model, `--passage-model local`), the
    first results take its vote (search/model_vote.py), for queries the semantic channel reads (not CJK ones with
    the default settings). An agentic step ranks so: its executor packs the evidence of all the steps."""
    wanted = request.top_k
    if reranker is not None:  # the first stage ranks as many as the reranker reads
        request = replace(request, top_k=min(MAX_TOP_K, max(request.top_k, rerank_depth)))
    weights = ranking.channel_weights()
    queries = {
        channel: terms
        for channel, terms in query_terms(request.query, ranking).items()
        if terms and (channel == "content" or weights[channel] > 0)  # content also seeds the expansion
    }
    limit = max(MIN_CANDIDATES, request.top_k * 5)
    semantic = semantic_query(index, request.namespace, request.query, embedder, ranking, limit)
    plan = replace(query_plan(queries, request.filters, limit, _feedback_chunks(ranking), ranking), semantic=semantic)
    first = index.first_pass(request.namespace, plan)
    corrected: dict[str, str] = {}
    model = reading_model(passage_model, request.query, ranking)
    ordered = _ranked(index, request, queries, first, limit, ranking, hits, model=model) if first.total else _NONE
    if first.total and not any(first.rankings.get(channel) for channel in queries):
        # No word matched: the corrected query's results, else the semantic channel's alone (if any).
        fixed, corrected = _with_corrections(index, request, queries, limit, ranking, semantic, hits, model)
        ordered = fixed if fixed.results else ordered
    ranked, led = ordered.results, ordered.led
    if 0 < first.total <= request.top_k:
        ranked = _with_the_rest(index, request, ranked, first.total)
    beyond = ranked[request.top_k :]  # where the passage vote was cast: later chunks the evidence may quote
    ranked = ranked[: request.top_k]
    if reranker is not None and ranked:
        order = reranked(request.query, ranked, [r.chunk.text for r in ranked], reranker, rerank_depth)
        ranked = with_rerank_scores(order, ranked)
    further = [*ranked[wanted:], *beyond][: max(0, ranking.evidence_depth - wanted)] if beyond else []
    ranked = ranked[:wanted]
    if ranked:
        check_budget(ranked[0].chunk, request.max_tokens)
    content = [corrected.get(term, term) for term in queries.get("content", [])]
    weights = query_weights(dict.fromkeys(content), first.content_idf)
    matched = bool(ranked)
    ranked = [r for r in _with_confidence(ranked, weights) if r.confidence >= request.min_score]
    further = [r for r in _with_confidence(further, weights) if r.confidence >= request.min_score] if ranked else []
    has_terms = bool(queries) or semantic is not None
    reason = (
        ""
        if ranked
        else "below_min_score"
        if matched
        else empty_reason(index, request.namespace, request.filters, has_terms=has_terms, allowed=first.total)
    )
    led = led and bool(ranked) and reranker is None  # a reranker's order stands
    return Ranked(ranked, first.total, corrected, reason, weights, model, further, led, ordered.aliases)


def _with_confidence(ranked: Sequence[RankedChunk], weights: Mapping[str, float]) -> list[RankedChunk]:
    return [
        replace(r, confidence=confidence(term_share(held_terms(r.chunk.text, weights.keys()), weights))) for r in ranked
    ]


class ChannelRanked(Protocol):
    """A ranked chunk as a result (RankedChunk) or an agentic row is: the chunk, and its rank in each channel."""

    @property
    def chunk(self) -> Chunk: ...

    @property
    def channel_ranks(self) -> Mapping[str, int]: ...


def expansion_only(ranked: Sequence[ChannelRanked]) -> set[str]:
    """Chunks that only the expanded query matched (no word the user wrote, no vector): evidence last."""
    return {r.chunk.chunk_id for r in ranked if r.channel_ranks and set(r.channel_ranks) <= {"expansion"}}


def _asset_links(ranked: Sequence[RankedChunk], asset_link: AssetLink | None) -> dict[str, str]:
    if asset_link is None:
        return {}
    links = {}
    for result in ranked:
        name = image_asset(result.chunk)
        if name is not None:
            links[result.chunk.chunk_id] = asset_link(result.chunk, name)
    return links


@dataclass(frozen=True, slots=True)
class _Ordered:
    """`_ranked`'s results, whether the evidence's passages lead them, and the candidates' abbreviations."""

    results: list[RankedChunk]
    led: bool = False
    aliases: Aliases = field(default_factory=dict)


_NONE = _Ordered([])


def _ranked(
    index: SearchBackend,
    request: SearchRequest,
    queries: Mapping[Channel, Sequence[str]],
    first: FirstPass,
    limit: int,
    ranking: RankingSettings,
    hits: HitReader | None = None,
    *,
    lexical_scale: float = 1.0,
    model: Reranker | None = None,
) -> _Ordered:
    """The fused, distinct, passage-ordered results of a first pass: `top_k`, and where the passage vote was cast
    (long documents) and `model` reads the query, the voted chunks after them up to `evidence_depth`, which the
    evidence may quote (the words alone tell the passages of those later chunks apart worse than they lose).
    `lexical_scale` multiplies the word channels' weights (below 1: the semantic channel's order leads, with its
    weight as is). With `model`, the first results also take its vote (search/model_vote.py). Also whether both
    votes were cast (long documents, a query the model reads): then the evidence's passages lead the results. Also
    the abbreviations the candidates define for a long form the query holds, which both votes and the evidence read
    (search/abbreviations.py)."""
    rounded = {channel: _rounded_scores(first.rankings.get(channel, [])) for channel in queries}
    rankings: dict[str, list[str]] = {channel: [cid for cid, _ in ranked] for channel, ranked in rounded.items()}
    if "semantic" in first.rankings:
        rankings["semantic"] = [cid for cid, _ in _rounded_scores(first.rankings["semantic"])]
    chunks: dict[str, Chunk] = {}
    voting = ranking.passage_vote_weight > 0 and may_vote(request.query)
    depth = max(request.top_k, ranking.passage_vote_depth) if voting else request.top_k
    if model is not None:
        depth = max(depth, ranking.model_vote_depth)
    feedback = rounded.get("content", [])[: _feedback_chunks(ranking)]
    if feedback:
        ids = [chunk_id for chunk_id, _ in feedback]
        frequencies = _feedback_frequencies(index, request.namespace, ids, first.content_frequencies, chunks)
        scores = [score for _, score in feedback]
        query, expansion = expansion_parts(
            ranking.query_weights(queries["content"]),
            list(zip(frequencies, scores, strict=True)),
            expansion_terms=ranking.expansion_terms,
            original_weight=ranking.original_weight,
        )
        likely = _likely_results(rankings, depth, ranking)
        fetch = [chunk_id for chunk_id in likely if chunk_id not in chunks]
        second = index.expansion_pass(
            request.namespace, expansion_plan(query, expansion, request.filters, limit, fetch)
        )
        chunks.update(second.chunks)
        rankings["expansion"] = [cid for cid, _ in _rounded_scores(second.ranking)]
    weights = ranking.channel_weights()
    if "semantic" in rankings and feedback and lexical_scale == 1.0:
        doubt = _lexical_doubt(queries.get("content", []), frequencies[0], first.content_idf)
        weights["semantic"] *= doubt**ranking.semantic_adapt
    weights = {
        channel: weight * (1.0 if channel == "semantic" else lexical_scale) for channel, weight in weights.items()
    }
    fused = fuse_rrf(rankings, weights, ranking.rrf_k)
    if hits is not None and ranking.hit_weight > 0:
        eligible = candidates(fused, ranking.hit_depth, dict(rounded.get("content", [])), ranking.hit_floor)
        fused = boosted(fused, hits.chunk_hits(request.namespace, eligible) if eligible else {}, ranking.hit_prior())
    results = _distinct_results(index, request, fused, chunks, depth)
    content_scores = dict(rounded.get("content", []))
    ordered = _siblings_by_passage(queries.get("content", []), content_scores, first.content_idf, results)
    term_weights = query_weights(dict.fromkeys(queries.get("content", [])), first.content_idf)
    short_forms = aliases([r.chunk.text for r in ordered], term_weights)
    long_documents = voting and votes_on(ordered)
    if long_documents:
        ordered = passage_voted(
            ordered, term_weights, weight=ranking.passage_vote_weight, rrf_k=ranking.rrf_k, aliases=short_forms
        )
    if model is not None:
        ordered = model_voted(
            ordered[: ranking.model_vote_depth], request.query, term_weights, model,
            weight=ranking.model_vote_weight, sentences=ranking.model_vote_sentences, rrf_k=ranking.rrf_k,
            aliases=short_forms,
        ) + ordered[ranking.model_vote_depth :]  # fmt: skip
    led = long_documents and model is not None
    kept = max(request.top_k, ranking.evidence_depth) if led else request.top_k
    results = [replace(r, lexical_score=content_scores.get(r.chunk.chunk_id, 0.0)) for r in ordered[:kept]]
    return _Ordered(results, led, short_forms)


def _with_corrections(
    index: SearchBackend,
    request: SearchRequest,
    queries: Mapping[Channel, Sequence[str]],
    limit: int,
    ranking: RankingSettings,
    semantic: SemanticQuery | None,
    hits: HitReader | None = None,
    model: Reranker | None = None,
) -> tuple[_Ordered, dict[str, str]]:
    """For a query nothing matched: the search again with its misspelt words corrected (search/corrections.py)
    (`_ranked`), and the corrections; nothing when no word has a close indexed term."""
    content = list(queries.get("content", []))
    typed = typed_words(request.query)
    wrong = misspelt(content, typed)
    if not wrong:
        return _NONE, {}
    try:
        candidates = index.similar_terms(request.namespace, wrong, SPELLING_RULE)
    except IndexBackendError as error:  # the answer without corrections stays "no results", not an error
        _log.warning("no spelling corrections: %s", error)
        return _NONE, {}
    corrected = corrections(wrong, candidates)
    if not corrected:
        return _NONE, {}
    fixed = [corrected.get(term, term) for term in content]
    queries = {**queries, "content": fixed, **({"path": fixed} if "path" in queries else {})}
    plan = query_plan(queries, request.filters, limit, _feedback_chunks(ranking), ranking)
    first = index.first_pass(request.namespace, replace(plan, semantic=semantic))
    if not any(first.rankings.get(channel) for channel in queries):
        return _NONE, {}
    # Beside the semantic channel a guess at the words only breaks its ties and follows its chunks: it never
    # outranks what the vectors found for the query as typed.
    scale = CORRECTED_UNDER_SEMANTIC if semantic is not None else 1.0
    ordered = _ranked(index, request, queries, first, limit, ranking, hits, lexical_scale=scale, model=model)
    shown = {typed.get(term, term): used for term, used in corrected.items()}
    return ordered, shown if ordered.results else {}


@lru_cache(maxsize=1024)
def _text_key(text: str) -> str:
    """A text's key for telling repeats apart; kept for the texts ranked last (popular chunks come back)."""
    return " ".join(normalize(text).split())


def _with_the_rest(
    index: SearchBackend, request: SearchRequest, ranked: list[RankedChunk], total: int
) -> list[RankedChunk]:
    """A namespace that fits in `top_k` is returned whole: the ranked chunks first, best first, then the chunks no
    channel matched, in document order with score 0, each text once."""
    seen = {_text_key(r.chunk.text) for r in ranked}
    rest = []
    for chunk in index.list_chunks(request.namespace, request.filters, total):
        if (key := _text_key(chunk.text)) not in seen:
            seen.add(key)
            rest.append(RankedChunk(chunk, 0.0, {}))
    return ranked + rest


def _distinct_results(
    index: SearchBackend,
    request: SearchRequest,
    fused: Sequence[tuple[str, float, dict[str, int]]],
    chunks: dict[str, Chunk],
    depth: int,
) -> list[RankedChunk]:
    """The first `depth` fused chunks (`top_k`, or the passage vote's depth) whose texts differ: a text already in
    the results (the same file uploaded twice, a README as .md and .html, a notice repeated in every document) is
    left out, whitespace and case aside, and the next chunk takes its place. Chunks are fetched as places need
    them, so a list without repeats costs the one fetch it always did."""
    results: list[RankedChunk] = []
    seen: set[str] = set()
    start = 0
    while len(results) < depth and start < len(fused):
        window = fused[start : start + depth - len(results)]
        start += len(window)
        missing = [chunk_id for chunk_id, _, _ in window if chunk_id not in chunks]
        chunks.update((chunk.chunk_id, chunk) for chunk in index.fetch(request.namespace, missing))
        for chunk_id, score, ranks in window:
            chunk = chunks.get(chunk_id)
            if chunk is not None and (key := _text_key(chunk.text)) not in seen:
                seen.add(key)
                results.append(RankedChunk(chunk, score, ranks))
    return results


def _feedback_frequencies(
    index: SearchBackend,
    namespace: str,
    ids: Sequence[str],
    known: Mapping[str, Mapping[str, int]],
    fetched: dict[str, Chunk],
) -> list[Mapping[str, int]]:
    """Each feedback chunk's content-term frequencies: those the first pass read, and for the others (a backend
    that keeps no content terms) the analyzed text of the chunk, fetched into `fetched` for the results."""
    unknown = [cid for cid in ids if cid not in known]
    fetched.update((chunk.chunk_id, chunk) for chunk in index.fetch(namespace, unknown))
    analyzed = {cid: Counter(analyze(fetched[cid].text)) if cid in fetched else Counter() for cid in unknown}
    return [known[cid] if cid in known else analyzed[cid] for cid in ids]


def _lexical_doubt(terms: Sequence[str], best: Mapping[str, int], idf: Mapping[str, float]) -> float:
    """1 - the idf-weighted share of the query's content terms that the best content chunk holds; a term no chunk
    holds (idf 0) weighs as the query's rarest found term, since the words cannot match it and the vectors might."""
    weights = query_weights(dict.fromkeys(terms), idf)
    return 1.0 - term_share({term for term in weights if best.get(term)}, weights)


def _feedback_chunks(ranking: RankingSettings) -> int:
    return ranking.feedback_chunks if ranking.expansion_weight > 0 else 0


def _likely_results(rankings: Mapping[str, Sequence[str]], top_k: int, ranking: RankingSettings) -> list[str]:
    """The chunks most likely to be returned, to fetch along with the expansion pass: the first pass fused,
    with the content ranking standing in for the expansion channel's (the expanded query contains the
    content query and mostly agrees with it). A miss costs one more fetch, not a different result."""
    guess = {**rankings, "expansion": rankings.get("content", [])}
    fused = fuse_rrf(guess, ranking.channel_weights(), ranking.rrf_k)
    return [cid for cid, _, _ in fused[: top_k + LIKELY_RESULTS_MARGIN]]


def _siblings_by_passage(
    content_terms: Sequence[str],
    content_scores: Mapping[str, float],
    idf: Mapping[str, float],
    results: list[RankedChunk],
) -> list[RankedChunk]:
    """The results with each document's chunks in the order of content score and best passage together
    (search/passages.py). A chunk keeps its channel ranks and takes the fused score of the place it moves to,
    so scores still fall down the list: a client that sorts or cuts by score keeps this order. Query terms
    weigh their content idf where the backend tells it (`FirstPass.content_idf`), else alike."""
    terms = list(dict.fromkeys(content_terms))
    if not terms or len({r.chunk.document_id for r in results}) == len(results):
        return results
    weights = {term: idf[term] for term in terms if idf.get(term, 0.0) > 0} if idf else dict.fromkeys(terms, 1.0)
    by_id = {r.chunk.chunk_id: r for r in results}
    order = siblings_by_passage(
        [(r.chunk.chunk_id, content_scores.get(r.chunk.chunk_id, 0.0)) for r in results],
        {r.chunk.chunk_id: r.chunk for r in results},
        weights,
    )
    return [
        RankedChunk(by_id[chunk_id].chunk, place.score, by_id[chunk_id].channel_ranks)
        for (chunk_id, _), place in zip(order, results, strict=True)
    ]


def _rounded_scores(ranked: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """Scores to six significant digits, ties broken by chunk id: Lucene scores in float32, the embedded index
    in float64, and the last bits must not decide an order (nor, through feedback, the expanded query)."""
    rounded = [(chunk_id, float(f"{score:.6g}")) for chunk_id, score in ranked]
    rounded.sort(key=lambda item: (-item[1], item[0]))
    return rounded
