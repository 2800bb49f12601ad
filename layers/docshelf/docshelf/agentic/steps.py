"""One step of a plan: discovery (the classic search), navigation of the found documents' sections, and the
rows and outline lines it offers for the evidence, each with its `agent_score` and `discovery_score`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from docshelf.agentic.graph_step import graph_sections
from docshelf.agentic.navigate import NavSource, breadth_first, outline_line, sections_of
from docshelf.agentic.plan import Step
from docshelf.assets.links import AssetLink
from docshelf.graph.source import GraphSource
from docshelf.index.analyzer import analyze, normalize
from docshelf.index.base import SearchBackend
from docshelf.index.plan import SearchFilters
from docshelf.index.stopwords import without_question_words
from docshelf.model import Chunk
from docshelf.search import service as search_service
from docshelf.search.abbreviations import Aliases
from docshelf.search.ranking import RANKING, RankingSettings
from docshelf.search.request import DEFAULT_MAX_TOKENS, SearchRequest
from docshelf.search.rerank import Reranker
from docshelf.search.response import RankedChunk
from docshelf.search.semantic import QueryEmbedder

NAVIGATED_DOCUMENTS = 2
MAX_HYDRATED_CHUNKS = 12
MAX_SECTION_CHUNKS = 2_000
# Whether navigation follows the document graph's edges by default: off. On six sets it changed one of 1,440 composite
# components at 300 tokens a question and one at 600, each a loss on CACM, and no single question
# (bench/agentic_bench.py --graph; docs/evaluation/graph-and-hits.md).
FOLLOW_GRAPH = False


@dataclass(frozen=True, slots=True)
class StepContext:
    """What every step of one run shares: the namespace (the only one any step reads) and the services."""

    index: SearchBackend
    namespace: str
    top_k: int
    filters: SearchFilters = field(default_factory=SearchFilters)
    nav_source: NavSource | None = None
    embedder: QueryEmbedder | None = None
    asset_link: AssetLink | None = None
    ranking: RankingSettings = RANKING
    graph_source: GraphSource | None = None  # a document's graph: navigation follows its edges
    follow_graph: bool = FOLLOW_GRAPH
    min_score: float = 0.0
    # The sentence model of classic search (`--passage-model`): it orders each step's passages as it orders classic
    # evidence's. It votes in a step's search only when `vote`: a plan of one search, the whole question, searches
    # as classic search does; in the steps of a composite its vote found fewer components
    # (docs/evaluation/evidence.md, "The sentence model in agentic mode").
    passage_model: Reranker | None = None
    vote: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    chunk: Chunk
    step_id: str
    agent_score: float
    discovery_score: float
    channel_ranks: dict[str, int] = field(default_factory=dict)
    excerpt: str = ""  # set when only these passages of the chunk went into the evidence
    lexical_score: float = 0.0
    confidence: float = 0.0

    @property
    def order(self) -> tuple[float, float]:
        return (-self.agent_score, -self.discovery_score)


@dataclass(frozen=True, slots=True)
class OutlineLine:
    step_id: str
    key: str
    text: str


@dataclass(frozen=True, slots=True)
class Found:
    """What a step found, best first: rows (hydrated chunks) and outline lines of unopened sections."""

    rows: list[Row]
    outlines: list[OutlineLine]


def query_terms_of(query: str) -> set[str]:
    return set(analyze(without_question_words(normalize(query))) or analyze(query))


def agent_score(terms: set[str], chunk: Chunk, *, discovered: bool) -> float:
    """How the agent rates a chunk for its step: 1 when discovery ranked it and it holds a term of the step's
    query, 0.5 when navigation brought it and it holds one (context after the findings), 0 when it holds none
    (the semantic or expansion channel alone found it: the fallback pool). Within a level the discovery order
    stands, so a single question keeps the classic ranking."""
    if terms and terms.isdisjoint(analyze(chunk.text)):
        return 0.0
    return 1.0 if discovered else 0.5


@dataclass(frozen=True, slots=True)
class Discovery:
    """A search step's rows, best first, and its query's content terms with their weights (for packing). `further`:
    the voted chunks after its `top_k` that its evidence may also quote, as classic evidence does (service.Ranked);
    `aliases`: the abbreviations its candidates define for its query's long forms (search/abbreviations.py)."""

    rows: list[Row]
    weights: dict[str, float]
    further: list[Row] = field(default_factory=list)
    aliases: Aliases = field(default_factory=dict)


def discover(ctx: StepContext, step: Step, terms: set[str]) -> Discovery:
    """A search step's first phase: the classic search of its query, best first."""
    return _discover(ctx, step, terms) if step.action == "search" else Discovery([], {})


def walk(ctx: StepContext, step: Step, terms: set[str], basis: Sequence[Row]) -> Found:
    """The navigation phase: a search step walks the best document it discovered, a navigate step the best two
    its dependencies found (`basis`)."""
    basis = sorted(basis, key=lambda row: row.order)
    documents = list(dict.fromkeys(row.chunk.document_id for row in basis))
    limit = 1 if step.action == "search" else NAVIGATED_DOCUMENTS
    rows: list[Row] = []
    outlines: list[OutlineLine] = []
    for document_id in documents[:limit]:
        walked, lines = _navigate(
            ctx, step, terms, document_id, [r for r in basis if r.chunk.document_id == document_id]
        )
        rows.extend(walked)
        outlines.extend(lines)
    return Found(_distinct(rows), outlines)


def _discover(ctx: StepContext, step: Step, terms: set[str]) -> Discovery:
    request = SearchRequest(ctx.namespace, step.query, ctx.top_k, DEFAULT_MAX_TOKENS, ctx.filters, ctx.min_score)
    model = ctx.passage_model if ctx.vote else None
    found = search_service.rank(ctx.index, request, ctx.ranking, embedder=ctx.embedder, passage_model=model)
    rows = _rows(ctx, step, terms, found.results)
    return Discovery(rows, found.term_weights, _rows(ctx, step, terms, found.further), found.aliases)


def _rows(ctx: StepContext, step: Step, terms: set[str], ranked: Sequence[RankedChunk]) -> list[Row]:
    return [
        Row(
            result.chunk,
            step.id,
            agent_score(terms, result.chunk, discovered=True),
            result.score,
            result.channel_ranks,
            lexical_score=result.lexical_score,
            confidence=result.confidence,
        )
        for result in ranked
        if result.chunk.namespace == ctx.namespace
    ]


def _navigate(
    ctx: StepContext, step: Step, terms: set[str], document_id: str, found: Sequence[Row]
) -> tuple[list[Row], list[OutlineLine]]:
    nav = ctx.nav_source.load(ctx.namespace, document_id) if ctx.nav_source is not None else None
    sections = sections_of(nav) if nav else []
    if not sections:
        return [], []
    hits: dict[tuple[str, ...], float] = {}
    for rank, row in enumerate(found):
        hits[row.chunk.section_path] = hits.get(row.chunk.section_path, 0.0) + 1.0 / (rank + 1)
    outcome = breadth_first(sections, terms, hits)
    leaves = outcome.leaves + _graph_leaves(ctx, document_id, found, outcome.leaves)
    known = {row.chunk.chunk_id: row for row in found}
    rows = _hydrate(ctx, step, terms, document_id, leaves, known)
    name = found[0].chunk.source_file_name if found else (rows[0].chunk.source_file_name if rows else document_id)
    lines = [
        OutlineLine(step.id, f"outline:{document_id}:{' > '.join(section.path)}", outline_line(name, section))
        for section in outcome.closed
    ]
    return rows, lines


def _graph_leaves(
    ctx: StepContext, document_id: str, found: Sequence[Row], opened: Sequence[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """Sections the document graph proposes beyond the opened ones (agentic/graph_step.py), when it is followed."""
    if not ctx.follow_graph or ctx.graph_source is None:
        return []
    graph = ctx.graph_source.load(ctx.namespace, document_id)
    strong = [row.chunk.chunk_id for row in sorted(found, key=lambda row: row.order) if row.agent_score >= 1]
    return graph_sections(graph, strong, opened) if graph and strong else []


def _hydrate(
    ctx: StepContext,
    step: Step,
    terms: set[str],
    document_id: str,
    leaves: Sequence[tuple[str, ...]],
    known: dict[str, Row],
) -> list[Row]:
    """The chunks of the selected leaf sections (the request's filters still apply), best first."""
    if not leaves or (ctx.filters.documents and document_id not in ctx.filters.documents):
        return []
    filters = replace(ctx.filters, documents=(document_id,))
    chunks = ctx.index.list_chunks(ctx.namespace, filters, MAX_SECTION_CHUNKS)
    wanted = _with_content({chunk.section_path for chunk in chunks}, leaves)
    rows = []
    for chunk in chunks:
        if chunk.namespace != ctx.namespace or chunk.section_path not in wanted:
            continue
        found = known.get(chunk.chunk_id)
        if found is not None:
            rows.append(replace(found, step_id=step.id))
        else:
            rows.append(Row(chunk, step.id, agent_score(terms, chunk, discovered=False), 0.0))
    rows.sort(key=lambda row: row.order)
    return rows[:MAX_HYDRATED_CHUNKS]


def _with_content(paths: set[tuple[str, ...]], leaves: Sequence[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """Each leaf, or when no chunk starts in it (a chunk holding several short sections starts in their parent),
    its nearest enclosing section where one does."""
    wanted = set()
    for leaf in leaves:
        for depth in range(len(leaf), 0, -1):
            if leaf[:depth] in paths:
                wanted.add(leaf[:depth])
                break
    return wanted


def _distinct(rows: Sequence[Row]) -> list[Row]:
    seen: set[str] = set()
    kept = []
    for row in sorted(rows, key=lambda row: row.order):
        if row.chunk.chunk_id not in seen:
            seen.add(row.chunk.chunk_id)
            kept.append(row)
    return kept
