"""Evidence packed by passages: the sentences that answer first, the rest of their chunks only with tokens to spare.

A long document's chunk holds its answer in a sentence or two; whole chunks spend a budget on the other twenty.
So the ranked chunks are cut into passages, each sentence holding a query term with `window` neighbours each
side, and the passages are claimed best first: by the weighted share of the query's terms they hold, less
`rank_penalty` per rank of their chunk (the ranking knows more than one window's words). A term weighs half by its
idf in the collection, half by its rarity among the candidates' sentences (`passage_weights`). A chunk's claimed
passages form one block under its citation header, in reading order, overlapping and adjacent ones merged and
the others joined by " … "; the blocks of one document stand together in reading order, the documents in the
order of their best passage. Tokens left once no passage fits widen the blocks (to the whole chunk when it
fits, else a sentence each side at a time), then pay for chunks that no query word matched (a semantic match).

A chunk that is only headings is never evidence; chunks the caller defers (matched only through query expansion)
are claimed after every other chunk's passages.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import fsum, log

from docshelf.citations import evidence_header
from docshelf.index.analyzer import normalize
from docshelf.model import Chunk
from docshelf.search.abbreviations import NO_ALIASES, Aliases
from docshelf.search.passages import sentence_terms
from docshelf.search.rerank import Reranker
from docshelf.search.sentences import analyzed_sentences, matched_terms
from docshelf.search.table_cells import is_row, row_cells
from docshelf.tokens import count_tokens

JOINER = " … "
JOINER_TOKENS = 2
SEPARATOR = "\n\n"
SEPARATOR_TOKENS = 2
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}")
_HEADING_MARKS = re.compile(r"^[#\s]+")
# Sentence punctuation: . ! ? ; , at a line's end or before a space, and the CJK marks anywhere (no spaces there).
_SENTENCE_MARK = re.compile(r"[.!?;:,]$|[.!?;]\s|[。！？；：，、]")
HEADING_LINES = 3
HEADING_WORDS = 10
HEADING_CHARS = 80  # a Chinese or Japanese line is one "word": its length bounds it


# The sentences and headers of the chunks searched last: popular chunks come back, and 85% of the counts of 300
# covidqa_dev searches were of a text counted before.
_piece_tokens = lru_cache(maxsize=8192)(count_tokens)


@dataclass(frozen=True, slots=True)
class PackingSettings:
    window: int = 1  # neighbour sentences each side of a matching one
    rank_penalty: float = 0.03  # taken from a passage's query-term share per rank of its chunk
    group_documents: bool = True  # a document's blocks together, in reading order
    local_share: float = 0.5  # of a term's weight, the part from its rarity among the candidates' sentences
    model_depth: int = 60  # passages, best first by their words, whose matching sentence a passage model scores
    model_weight: float = 1.0  # times the model's score, added to each of those passages' scores


PACKING = PackingSettings()


@dataclass(frozen=True, slots=True)
class EvidenceBlock:
    number: int
    chunk: Chunk
    excerpt: str  # the chunk's text that went in: all of it when `whole`
    whole: bool
    header: str
    priority: int = 0  # the order the packer chose the chunks in, best first (blocks are in reading order)


@dataclass(frozen=True, slots=True)
class PackedEvidence:
    text: str
    tokens: int  # the tokens the budget counted: the text's own count, or a few more where joins merge tokens
    blocks: tuple[EvidenceBlock, ...]

    @property
    def header_tokens(self) -> int:
        return sum(count_tokens(block.header) for block in self.blocks)


@dataclass(slots=True)
class _Candidate:
    rank: int
    chunk: Chunk
    spans: list[tuple[int, int]]
    windows: list[tuple[int, int]]  # sentence ranges [start, end) around each matching sentence
    scores: list[float]  # each window's share of the query's term weight
    centers: list[int] = field(default_factory=list)  # each window's matching sentence
    own: list[float] = field(default_factory=list)  # the matching sentence's own share (ties go to the fuller)
    pinned: tuple[int, int] | None = None  # a table's header rows, kept with any of its rows
    asset: str | None = None
    deferred: bool = False
    claimed: list[tuple[int, int]] = field(default_factory=list)
    whole: bool = False
    header_costs: dict[str | None, int] = field(default_factory=dict)  # by the previous block's chunk id
    excerpt_costs: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = field(default_factory=dict)
    sentence_costs: dict[int, int] = field(default_factory=dict)
    head_led: bool = False  # a table whose words matched only its head: its one window is the head's (`_candidate`)

    def header_cost(self, previous: Chunk | None) -> int:
        """The header's tokens after `previous` (its `[n]` is three tokens for any n up to 999)."""
        key = previous.chunk_id if previous is not None else None
        if key not in self.header_costs:
            self.header_costs[key] = _piece_tokens(evidence_header(1, self.chunk, previous))
        return self.header_costs[key]

    def excerpt_cost(self) -> int:
        """The excerpt's tokens, at least its text's: a whole chunk's as the chunker counted them; passages as the
        sum of their sentences' counts and of the text between them (at least a token: a word's leading space goes to
        the next token), one more and the joiner's tokens between passages."""
        key = (self.whole, tuple(self.claimed))
        if key not in self.excerpt_costs:
            self.excerpt_costs[key] = self._whole_cost() if self.whole else self._passages_cost()
        return self.excerpt_costs[key]

    def _whole_cost(self) -> int:
        text = self.chunk.token_count if self.chunk.token_count > 0 else count_tokens(self.chunk.text)
        return text + (count_tokens(image_line(self.asset)) + 1 if self.asset else 0)

    def _passages_cost(self) -> int:
        ranges = _merged([*([self.pinned] if self.pinned and self.claimed else []), *self.claimed])
        sentences = sum(self._sentence_cost(at) for start, end in ranges for at in range(start, end))
        gaps = sum(self._gap_cost(at) for start, end in ranges for at in range(start, end - 1))
        return sentences + gaps + (1 + JOINER_TOKENS) * (len(ranges) - 1)

    def _gap_cost(self, at: int) -> int:
        """The text between sentence `at` and the next, at least one token (a run of line breaks and spaces can be
        several)."""
        gap = self.chunk.text[self.spans[at][1] : self.spans[at + 1][0]]
        return 1 if gap in ("", " ", "\n") else max(1, _piece_tokens(gap))

    def _sentence_cost(self, at: int) -> int:
        if at not in self.sentence_costs:
            start, end = self.spans[at]
            self.sentence_costs[at] = _piece_tokens(self.chunk.text[start:end])
        return self.sentence_costs[at]

    def model_text(self, window: int) -> str:
        """What a sentence model reads for window `window`: its matching sentence, or a table row as "column: cell"
        pairs under the table's header row (a small model reads "| M12 | 80 |" as next to nothing: its cosine to a
        question about the M12 bolts' torque goes from 0.34 to 0.67 once the row says "Torque (Nm): 80")."""
        return self.head_text() if self.head_led else self._row_text(self.centers[window])

    def head_text(self) -> str:
        """What a sentence model reads for a table whose words matched only its head (caption, header row): the
        caption and the first row as "column: cell" pairs."""
        if self.pinned is None:
            return ""
        caption = [self.chunk.text[start:end] for start, end in self.spans[: max(0, self.pinned[1] - 2)]]
        first_row = [self._row_text(self.pinned[1])] if self.pinned[1] < len(self.spans) else []
        return " ".join([*caption, *first_row])

    def _row_text(self, sentence: int) -> str:
        start, end = self.spans[sentence]
        text = self.chunk.text[start:end]
        if self.pinned is None or self.pinned[1] < 2 or not is_row(text):
            return text
        start, end = self.spans[self.pinned[1] - 2]  # the row above the |---| rule
        header = self.chunk.text[start:end]
        if not is_row(header):
            return text
        names, cells = row_cells(header), row_cells(text)
        if len(names) != len(cells):
            return text
        return "; ".join(f"{name}: {cell}" if name else cell for name, cell in zip(names, cells, strict=True) if cell)

    def excerpt(self) -> str:
        if self.whole:
            return self.chunk.text + (image_line(self.asset) if self.asset else "")
        ranges = _merged([*([self.pinned] if self.pinned and self.claimed else []), *self.claimed])
        text = self.chunk.text
        return JOINER.join(text[self.spans[start][0] : self.spans[end - 1][1]] for start, end in ranges)

    def is_all(self, ranges: list[tuple[int, int]]) -> bool:
        return _merged(ranges) == [(0, len(self.spans))]


def is_heading_only(chunk: Chunk) -> bool:
    """A text chunk of headings only, which says where but never what: every line a title on its section path,
    or a few short lines without a sentence's punctuation, one of them such a title (the heading of a section
    whose text the next chunk holds, which the path does not name yet)."""
    if chunk.type != "text" or not chunk.section_path:
        return False
    titles = {_title_key(title) for title in chunk.section_path}
    lines = [_title_key(line) for line in chunk.text.splitlines() if line.strip()]
    if not lines:
        return False
    if all(line in titles for line in lines):
        return True
    short = len(lines) <= HEADING_LINES and all(
        len(line.split()) <= HEADING_WORDS and len(line) <= HEADING_CHARS and not _SENTENCE_MARK.search(line)
        for line in lines
    )
    return short and any(line in titles for line in lines)


def _title_key(text: str) -> str:
    return " ".join(normalize(_HEADING_MARKS.sub("", text)).split())


def pack_evidence(
    chunks: Sequence[Chunk],
    weights: Mapping[str, float],
    max_tokens: int,
    *,
    assets: Mapping[str, str] | None = None,
    deferred: Collection[str] = (),
    settings: PackingSettings = PACKING,
    passage_model: Reranker | None = None,
    query: str = "",
    max_blocks: int | None = None,
    aliases: Aliases = NO_ALIASES,
) -> PackedEvidence:
    """The evidence of `chunks` (best first) for a query whose content terms weigh `weights`, within
    `max_tokens` (cl100k tokens of the whole text), quoting at most `max_blocks` chunks. With `passage_model`, the
    first `model_depth` passages also gain its score of their matching sentence against `query`. A short form of
    `aliases` (search/abbreviations.py) in a sentence stands for its long form's terms."""
    if max_tokens <= 0:
        return PackedEvidence("", 0, ())
    weights = passage_weights(chunks, weights, settings.local_share, aliases)
    candidates = [
        _candidate(
            rank, chunk, weights, settings, (assets or {}).get(chunk.chunk_id), chunk.chunk_id in deferred, aliases
        )
        for rank, chunk in enumerate(chunks)
        if not is_heading_only(chunk)
    ]
    if passage_model is not None:
        _scored_by_model(candidates, query, passage_model, settings)
    order: list[_Candidate] = []  # in the order each first got a passage
    room = len(candidates) if max_blocks is None else max_blocks
    for candidate, window in _passages_best_first(candidates, settings):
        if candidate not in order and len(order) >= room:
            continue
        trial = [*candidate.claimed, window]
        if _fits(order, candidate, trial, max_tokens, settings):
            candidate.claimed, candidate.whole = _merged(trial), candidate.is_all(trial)  # as `_fits` counted it
            if candidate not in order:
                order.append(candidate)
        elif not order:  # the best passage alone is over the budget: its sentence, cut if need be
            return _best_sentence(candidates, max_tokens, settings)
    _widen(order, max_tokens, settings)
    for candidate in candidates:  # what no word matched, whole, best first
        if candidate not in order and not candidate.windows and len(order) < room:
            candidate.whole = True
            if _cost([*order, candidate], settings) <= max_tokens:
                order.append(candidate)
            else:
                candidate.whole = False
    if not order and candidates:
        return _best_sentence(candidates, max_tokens, settings)
    return _render(order, max_tokens, settings)


def passage_weights(
    chunks: Sequence[Chunk], weights: Mapping[str, float], local_share: float, aliases: Aliases = NO_ALIASES
) -> dict[str, float]:
    """Each query term's weight for choosing passages among `chunks`: `weights_among` their sentences."""
    if sum(weights.values()) <= 0 or local_share <= 0:
        return dict(weights)
    sentences = [
        terms
        for chunk in chunks
        if chunk.type != "image"
        for terms in matched_terms(chunk.text, weights.keys(), aliases)
    ]
    return weights_among(sentences, weights, local_share)


def weights_among(
    sentences: Sequence[Collection[str]], weights: Mapping[str, float], local_share: float
) -> dict[str, float]:
    """Each query term's weight among `sentences` (each the query terms it holds): `1 - local_share` of its share of
    the query's weight (its idf in the collection), `local_share` of its share of the query's rarity among the
    sentences, log((N + 1) / (n + 0.5)) with n of the N sentences holding it. A term that every candidate sentence
    holds (the paper's subject, in a question about one paper) tells them apart less than its idf in the collection
    says."""
    total = sum(weights.values())
    if total <= 0 or local_share <= 0:
        return dict(weights)
    rarity = {term: log((len(sentences) + 1) / (sum(term in held for held in sentences) + 0.5)) for term in weights}
    rare_total = sum(rarity.values())
    return {
        term: (1 - local_share) * weight / total + local_share * rarity[term] / rare_total
        for term, weight in weights.items()
    }


def best_passage_scores(
    chunks: Sequence[Chunk],
    weights: Mapping[str, float],
    settings: PackingSettings = PACKING,
    aliases: Aliases = NO_ALIASES,
) -> list[float]:
    """Each chunk's best passage score, weighed as the packer weighs passages (`weights_among` the chunks'
    sentences): the weighted share of the query's terms in a sentence holding one and `window` neighbours each side;
    0 for a chunk no term matched. The sentences are `passages.sentence_terms`' (kept for texts ranked again, and
    shared with the sibling order), which end at . ! ? and 。 only, not at line breaks as the packer's do."""
    total = sum(weights.values())
    if total <= 0:
        return [0.0] * len(chunks)
    per_chunk = [
        [frozenset(terms) for terms in sentence_terms(chunk.text, weights, aliases)] if chunk.type != "image" else []
        for chunk in chunks
    ]
    shares = weights_among([terms for sentences in per_chunk for terms in sentences], weights, settings.local_share)
    share_total = sum(shares.values())
    return [_best_window(sentences, shares, settings.window) / share_total for sentences in per_chunk]


def best_sentences(
    chunks: Sequence[Chunk],
    weights: Mapping[str, float],
    per_chunk: int,
    settings: PackingSettings = PACKING,
    aliases: Aliases = NO_ALIASES,
) -> tuple[list[str], list[int]]:
    """The matching sentences of each chunk's `per_chunk` best passages, as the packer ranks a chunk's passages, and
    for each the place of its chunk in `chunks`."""
    shares = passage_weights(chunks, weights, settings.local_share, aliases)
    sentences, owners = [], []
    for at, chunk in enumerate(chunks):
        candidate = _candidate(at, chunk, shares, settings, None, False, aliases)
        best = sorted(range(len(candidate.windows)), key=lambda window: -candidate.scores[window])[:per_chunk]
        texts = [candidate.model_text(window) for window in best] or [candidate.head_text()]
        texts = [text for text in texts if text]
        sentences += texts
        owners += [at] * len(texts)
    return sentences, owners


def _best_window(sentences: Sequence[frozenset[str]], weights: Mapping[str, float], window: int) -> float:
    return max(
        (
            fsum(weights[term] for term in frozenset().union(*sentences[max(0, at - window) : at + window + 1]))
            for at, held in enumerate(sentences)
            if held
        ),
        default=0.0,
    )


def _candidate(
    rank: int,
    chunk: Chunk,
    weights: Mapping[str, float],
    settings: PackingSettings,
    asset: str | None,
    later: bool,
    aliases: Aliases = NO_ALIASES,
) -> _Candidate:
    spans = list(analyzed_sentences(chunk.text)[0])
    total = sum(weights.values())
    if chunk.type == "image" or total <= 0:
        return _Candidate(rank, chunk, spans, [], [], asset=asset, deferred=later)
    terms = matched_terms(chunk.text, weights.keys(), aliases)
    pinned = _table_head(chunk, spans) if chunk.type == "table" else None
    starts = [at for at, held in enumerate(terms) if held and not (pinned and at < pinned[1])]
    # A table's passage is shown under its head (caption, header rows), so the head's terms weigh in it; a table whose
    # words matched only its head ("Stanley Cups | Team | Cups") is what was asked for: its passage is the first rows.
    head = frozenset().union(*terms[: pinned[1]]) if pinned and pinned[1] < len(spans) else frozenset()
    led = bool(head) and not starts
    if led and pinned:
        starts = [pinned[1]]
    windows = [(max(0, at - settings.window), min(len(spans), at + settings.window + 1)) for at in starts]
    scores = [fsum(weights[t] for t in head.union(*terms[start:end])) / total for start, end in windows]
    own = [fsum(weights[t] for t in (head if led else terms[at])) / total for at in starts]
    return _Candidate(rank, chunk, spans, windows, scores, starts, own, pinned, asset, later, head_led=led)


def _table_head(chunk: Chunk, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The sentence range of a Markdown table's caption and header rows, through its `|---|` rule."""
    for at, (start, end) in enumerate(spans):
        if _TABLE_RULE.match(chunk.text[start:end]):
            return (0, at + 1)
    return None


def _passages_best_first(
    candidates: Sequence[_Candidate], settings: PackingSettings
) -> list[tuple[_Candidate, tuple[int, int]]]:
    return [(candidate, candidate.windows[at]) for candidate, at in _ranked_passages(candidates, settings)]


def _ranked_passages(candidates: Sequence[_Candidate], settings: PackingSettings) -> list[tuple[_Candidate, int]]:
    """Every passage, as (candidate, its place in `windows`), best first."""
    keyed = [
        ((candidate.deferred, -round(score - settings.rank_penalty * candidate.rank, 9), -own, candidate.rank,
          window[0]), candidate, at)
        for candidate in candidates
        for at, (window, score, own) in enumerate(zip(candidate.windows, candidate.scores, candidate.own, strict=True))
    ]  # fmt: skip
    keyed.sort(key=lambda item: item[0])
    return [(candidate, at) for _, candidate, at in keyed]


def _scored_by_model(candidates: Sequence[_Candidate], query: str, model: Reranker, settings: PackingSettings) -> None:
    """The first `model_depth` passages gain `model_weight` times the model's score of their matching sentence (a
    sentence model reads what the words only count: "as high as 35% in children" answers a question about a
    mortality rate). Only the first few: the model costs milliseconds a sentence, and the rest stay behind them."""
    chosen = _ranked_passages(candidates, settings)[: settings.model_depth]
    if not chosen:
        return
    sentences = [candidate.model_text(at) for candidate, at in chosen]
    for (candidate, at), score in zip(chosen, model.scores(query, sentences), strict=True):
        candidate.scores[at] += settings.model_weight * score


def _fits(
    order: list[_Candidate],
    candidate: _Candidate,
    ranges: list[tuple[int, int]],
    max_tokens: int,
    settings: PackingSettings,
) -> bool:
    """Whether the evidence stays within `max_tokens` with `candidate` claiming `ranges` (nothing is changed)."""
    kept, was_whole = candidate.claimed, candidate.whole
    candidate.claimed, candidate.whole = _merged(ranges), candidate.is_all(ranges)
    cost = _cost(order if candidate in order else [*order, candidate], settings)
    candidate.claimed, candidate.whole = kept, was_whole
    return cost <= max_tokens


def _widen(order: list[_Candidate], max_tokens: int, settings: PackingSettings) -> None:
    """Tokens left widen each block in turn: to its whole chunk when that fits, else a sentence each side at a
    time while that fits."""
    for candidate in order:
        everything = [(0, len(candidate.spans))]
        if _fits(order, candidate, everything, max_tokens, settings):
            candidate.claimed, candidate.whole = everything, True
            continue
        while True:
            grown = _merged(
                [(max(0, start - 1), min(len(candidate.spans), end + 1)) for start, end in candidate.claimed]
            )
            if grown == candidate.claimed or not _fits(order, candidate, grown, max_tokens, settings):
                break
            candidate.claimed = grown


def _reading_order(order: Sequence[_Candidate], settings: PackingSettings) -> Sequence[_Candidate]:
    """Documents by their first claimed passage, a document's chunks by their place in it (or claim order without
    `group_documents`)."""
    if not settings.group_documents:
        return order
    first: dict[str, int] = {}
    for at, candidate in enumerate(order):
        first.setdefault(candidate.chunk.document_id, at)
    return sorted(order, key=lambda c: (first[c.chunk.document_id], c.chunk.ordinal, c.rank))


def _blocks(order: Sequence[_Candidate], settings: PackingSettings) -> list[tuple[_Candidate, str, str]]:
    """(candidate, header, excerpt) in reading order."""
    blocks = []
    previous: Chunk | None = None
    for number, candidate in enumerate(_reading_order(order, settings), start=1):
        header = evidence_header(number, candidate.chunk, previous)
        blocks.append((candidate, header, candidate.excerpt()))
        previous = candidate.chunk
    return blocks


def _cost(order: Sequence[_Candidate], settings: PackingSettings) -> int:
    """Tokens of the blocks rendered in reading order, header and excerpt counted apart (the header's final line
    break ends a pre-token, and so does the separator), each counted once per state: the final text is counted
    whole."""
    total = SEPARATOR_TOKENS * max(0, len(order) - 1)
    previous: Chunk | None = None
    for candidate in _reading_order(order, settings):
        total += candidate.header_cost(previous) + candidate.excerpt_cost()
        previous = candidate.chunk
    return total


def _render(order: list[_Candidate], max_tokens: int, settings: PackingSettings) -> PackedEvidence:
    """The blocks as text, with the tokens the budget counted for them (`_cost`): the text is not counted again,
    since a header's final line break and a separator start pre-tokens of their own, so the parts' counts add up
    to the whole's or a little more (a separator after punctuation merges with it)."""
    while (tokens := _cost(order, settings)) > max_tokens and order:
        order.pop()
    blocks = _blocks(order, settings)
    text = SEPARATOR.join(header + excerpt for _, header, excerpt in blocks)
    priority = {id(candidate): at for at, candidate in enumerate(order)}
    return PackedEvidence(
        text,
        tokens,
        tuple(
            EvidenceBlock(number, c.chunk, excerpt, c.whole, header, priority[id(c)])
            for number, (c, header, excerpt) in enumerate(blocks, start=1)
        ),
    )


def _best_sentence(candidates: Sequence[_Candidate], max_tokens: int, settings: PackingSettings) -> PackedEvidence:
    """Not even one passage fits: the best passage's matching sentence alone, cut to the budget when it is still
    too long (the best chunk's head when no word matched)."""
    from docshelf.chunking.split import token_windows  # rare: the search path needs no chunker

    best = _passages_best_first(candidates, settings)
    candidate, window = best[0] if best else (candidates[0], (0, len(candidates[0].spans)))
    middle = candidate.centers[candidate.windows.index(window)] if best else 0
    if best:
        candidate.claimed = [(middle, middle + 1)]
        packed = _render([candidate], max_tokens, settings)
        if packed.blocks:
            return packed
    header = evidence_header(1, candidate.chunk)
    text = candidate.chunk.text[candidate.spans[middle][0] :] if candidate.spans else candidate.chunk.text
    cut = next(iter(token_windows(header + text, max_tokens)), "")
    if not cut.startswith(header) or cut == header:
        return PackedEvidence("", 0, ())
    block = EvidenceBlock(1, candidate.chunk, cut[len(header) :], False, header)
    return PackedEvidence(cut, count_tokens(cut), (block,))


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentence ranges with overlapping and adjacent ones joined, in reading order."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def image_line(link: str) -> str:
    return f"\n[image: {link}]"
