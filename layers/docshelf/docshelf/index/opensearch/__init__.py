"""The OpenSearch engine: one index per namespace on a node, domain or Serverless collection."""

from docshelf.index.opensearch.index import OpenSearchIndex

__all__ = ["OpenSearchIndex"]
