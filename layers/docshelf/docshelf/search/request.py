"""What a search asks for: a namespace, a query, how many results and how many evidence tokens, filters."""

from __future__ import annotations

from dataclasses import dataclass, field

from docshelf.errors import InvalidQueryError
from docshelf.ids import validate_namespace
from docshelf.index.plan import SearchFilters

DEFAULT_TOP_K = 8
MAX_TOP_K = 50
DEFAULT_MAX_TOKENS = 2000


@dataclass(frozen=True, slots=True)
class SearchRequest:
    namespace: str
    query: str
    top_k: int = DEFAULT_TOP_K
    max_tokens: int = DEFAULT_MAX_TOKENS
    filters: SearchFilters = field(default_factory=SearchFilters)
    min_score: float = 0.0  # results whose confidence is lower are left out (and so is their evidence)

    def __post_init__(self) -> None:
        validate_namespace(self.namespace)
        if not self.query.strip():
            raise InvalidQueryError("the query is empty")
        if not 1 <= self.top_k <= MAX_TOP_K:
            raise InvalidQueryError(f"top_k must be between 1 and {MAX_TOP_K}")
        if self.max_tokens < 1:
            raise InvalidQueryError("max_tokens must be positive")
        if not 0.0 <= self.min_score <= 1.0:
            raise InvalidQueryError("min_score must be between 0 and 1")
