"""Embedding providers (issue #23): text to vectors, locally with onnxruntime or on Amazon Bedrock.

Light on purpose (the standard library only): `infra/fetch_models.py` reads the catalog at build time without numpy.
The vector cache is `docshelf.embeddings.cache.VectorCache`.
"""

from docshelf.embeddings.base import EmbeddingError, EmbeddingModel, EmbeddingProvider
from docshelf.embeddings.factory import provider_from_config

__all__ = ["EmbeddingError", "EmbeddingModel", "EmbeddingProvider", "provider_from_config"]
