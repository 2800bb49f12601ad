"""A typed Python client for docshelf's search API: search (classic and agentic), documents, uploads, runs.

It needs nothing beyond the standard library (SigV4 signing imports botocore when used) and never imports the
parsers, the index or numpy, so an assistant's process can use it alone. The LangChain and LlamaIndex retrievers
are `docshelf.client.langchain` and `docshelf.client.llamaindex` (extras `docshelf[langchain]`,
`docshelf[llamaindex]`).
"""

from docshelf.client.api import DocshelfClient
from docshelf.client.auth import BearerToken, SigV4
from docshelf.client.transport import DocshelfApiError, Retry
from docshelf.client.types import (
    Deleted,
    Document,
    Ingested,
    Plan,
    Run,
    SearchHit,
    SearchResult,
    SourceLink,
    Uploaded,
)

__all__ = [
    "BearerToken",
    "Deleted",
    "DocshelfApiError",
    "DocshelfClient",
    "Document",
    "Ingested",
    "Plan",
    "Retry",
    "Run",
    "SearchHit",
    "SearchResult",
    "SigV4",
    "SourceLink",
    "Uploaded",
]
