"""What the pipeline stages are configured with; light, so the search function can read settings cheaply."""

from __future__ import annotations

from dataclasses import dataclass, field

from docshelf.chunking.config import ChunkConfig
from docshelf.parsers.base import ParseLimits


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    chunking: ChunkConfig = field(default_factory=ChunkConfig)
    limits: ParseLimits = field(default_factory=ParseLimits)
