"""`docshelf reembed`: give every chunk of a namespace vectors of another embedding model (or its first ones)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from docshelf.errors import DocshelfError
from docshelf.ids import validate_namespace
from docshelf.local.services import LocalServices
from docshelf.local.terminal import shown_line
from docshelf.pipeline.reembed import reembed_namespace
from docshelf.search.document_names import check_namespace

EXIT_OK, EXIT_FAILED = 0, 1


def cmd_reembed(args: argparse.Namespace, services: Callable[[argparse.Namespace], LocalServices]) -> int:
    """Exit 1 when the index refused some document (it keeps its previous vectors)."""
    if args.embeddings == "none":
        raise DocshelfError("reembed needs an embedding provider: --embeddings local|bedrock")
    opened = services(args)
    check_namespace(validate_namespace(args.namespace), opened.registry.namespaces())
    vectors = opened.vector_cache()
    assert vectors is not None  # a provider other than "none" always gives one
    started = time.perf_counter()
    embeddings = f"{opened.config.embedding_provider}:{opened.config.embedding_model_id}"
    done = reembed_namespace(opened.index, opened.registry, args.namespace, vectors, embeddings=embeddings)
    model = vectors.provider.model
    print(
        f"{args.namespace}: {done.chunks} chunks of {done.documents} documents embedded with "
        f"{model.provider}:{model.model_id} ({model.dimension} dims) in {time.perf_counter() - started:.1f} s"
    )
    for document_id, reason in sorted(done.refused.items()):
        print(shown_line(f"docshelf reembed: {document_id}: {reason}"), file=sys.stderr)
    return EXIT_FAILED if done.refused else EXIT_OK
