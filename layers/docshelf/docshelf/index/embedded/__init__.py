"""The embedded engine: BM25 postings in memory (numpy), one object per document in an object store."""

from docshelf.index.embedded.index import EmbeddedIndex

__all__ = ["EmbeddedIndex"]
