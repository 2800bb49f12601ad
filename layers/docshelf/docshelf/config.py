"""What the pipeline stages are configured with; light, so the search function can read settings cheaply."""

from __future__ import annotations

from dataclasses import dataclass, field

from docshelf.chunking.config import ChunkConfig

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


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    chunking: ChunkConfig = field(default_factory=ChunkConfig)
    limits: ParseLimits = field(default_factory=ParseLimits)
