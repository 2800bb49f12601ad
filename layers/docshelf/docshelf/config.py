"""What the pipeline stages are configured with; light, so the search function can read settings cheaply."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace

from docshelf.errors import InvalidConfigError
from docshelf.versions import CHUNKER_VERSION

# Chunking: light enough for any module (the search function) to import without the chunker.
DEFAULT_CHUNK_TOKENS = 500
DEFAULT_OVERLAP_TOKENS = 40


def default_overlap(chunk_tokens: int) -> int:
    """The default overlap, kept small relative to smaller chunks."""
    return min(DEFAULT_OVERLAP_TOKENS, chunk_tokens // 8)


@dataclass(frozen=True, slots=True)
class ChunkConfig:
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS
    overlap_tokens: int = DEFAULT_OVERLAP_TOKENS
    whole_document_tokens: int = 0
    overlap_across_pages: bool = False
    # A new section starts a new chunk once the current one holds this share of the budget.
    section_break_fill: float = 0.3

    def __post_init__(self) -> None:
        if self.chunk_tokens < 16:
            raise InvalidConfigError("chunk_tokens must be at least 16")
        if not 0 <= self.overlap_tokens < self.chunk_tokens // 2:
            raise InvalidConfigError("overlap_tokens must be at least 0 and less than half of chunk_tokens")
        if self.whole_document_tokens < 0:
            raise InvalidConfigError("whole_document_tokens must not be negative")

    def cache_key(self) -> str:
        fields = ",".join(f"{k}={v}" for k, v in sorted(asdict(self).items()))
        return f"chunker{CHUNKER_VERSION}:{fields}"


# The embedding providers a setting may name (docshelf.embeddings.provider_from_config builds them).
PROVIDER_NAMES = ("none", "local", "bedrock")
# The passage models a setting may name (docshelf.embeddings.passage_model_from_config builds them): "auto" is
# "local" when that model is installed (`make setup`), else "none"; the default of the local commands.
PASSAGE_MODELS = ("auto", "none", "local")
DEFAULT_PASSAGE_MODEL = "auto"

# OpenSearch index name prefix: namespace NS lives in the alias `<prefix>.NS` (template.yaml's default too).
DEFAULT_OPENSEARCH_INDEX = "docshelf-chunks"


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """What a parser may spend on one document. Here rather than with the parsers so that reading settings
    (the search function does) does not import the parser registry."""

    max_bytes: int = 200 * 1024 * 1024
    max_pages: int = 5000
    max_decompressed_bytes: int = 1024 * 1024 * 1024
    max_compression_ratio: float = 200.0
    # A sheet cell costs about 1 KB at the peak of an ingest (grid, table, Markdown, analysis, index), so a
    # million keep a CSV's ingest near 1 GB; a file over it is indexed in part, with the status `partial`.
    max_sheet_cells: int = 1_000_000
    # Pixels of one image page (PNG, JPEG, TIFF frame) before it is decoded: 200 million is a 600 dpi A0 scan;
    # a decompression bomb declares billions in a few bytes.
    max_image_pixels: int = 200_000_000
    time_budget_s: float = 300.0
    # A PDF is read in page ranges (shards) of at most this much work each: on AWS one invocation a range,
    # locally one worker process a range. The two sizes give a text range and a scanned (OCR'd) range about the
    # same few seconds of work, far inside one invocation (docs/evaluation.md, "Figures from code comments").
    # A range holds at most this many pages of one kind, in proportion when mixed; a document within one
    # range's work is read whole.
    text_pages_per_range: int = 1000
    scanned_pages_per_range: int = 50


# Local overrides of the shard plan's range sizes (the Lambdas read SHARD_TEXT_PAGES and SHARD_SCANNED_PAGES).
SHARD_TEXT_PAGES_ENV = "DOCSHELF_SHARD_TEXT_PAGES"
SHARD_SCANNED_PAGES_ENV = "DOCSHELF_SHARD_SCANNED_PAGES"


def local_limits(limits: ParseLimits | None = None, environ: Mapping[str, str] | None = None) -> ParseLimits:
    """`limits` (the defaults when None) with the shard range sizes the environment sets (positive whole numbers)."""
    env = os.environ if environ is None else environ
    limits = limits or ParseLimits()
    text = env.get(SHARD_TEXT_PAGES_ENV, "").strip()
    scanned = env.get(SHARD_SCANNED_PAGES_ENV, "").strip()
    return replace(
        limits,
        text_pages_per_range=_pages(SHARD_TEXT_PAGES_ENV, text) if text else limits.text_pages_per_range,
        scanned_pages_per_range=_pages(SHARD_SCANNED_PAGES_ENV, scanned) if scanned else limits.scanned_pages_per_range,
    )


def _pages(name: str, raw: str) -> int:
    if not raw.isdigit() or int(raw) < 1:
        raise InvalidConfigError(f"{name} must be a positive whole number of pages, not {raw!r}")
    return int(raw)


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    chunking: ChunkConfig = field(default_factory=ChunkConfig)
    limits: ParseLimits = field(default_factory=ParseLimits)
    # The semantic channel's embeddings (docshelf.embeddings.provider_from_config): "none", "local" or "bedrock",
    # and the provider's model ("" for its default).
    embedding_provider: str = "none"
    embedding_model_id: str = ""

    def __post_init__(self) -> None:
        if self.embedding_provider not in PROVIDER_NAMES:
            raise InvalidConfigError(
                f"unknown embedding provider {self.embedding_provider!r}: use one of {', '.join(PROVIDER_NAMES)}"
            )
