"""`docshelf resync`: publish a namespace again from its stored chunks after a change of embedding model, engine or
index, locally or on the deployed stack (`--aws`). See docs/evaluation/resync.md for when and what it costs."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.errors import DocshelfError
from docshelf.ids import validate_namespace
from docshelf.index.base import SearchBackend
from docshelf.local.cli_options import chunk_options, embedding_options, store_options
from docshelf.local.services import LocalServices
from docshelf.local.terminal import shown_line
from docshelf.pipeline.resync import (
    DEFAULT_BATCH_DOCUMENTS,
    Resynced,
    ResyncPlan,
    embed_ahead,
    plan_resync,
    resync_namespace,
)
from docshelf.registry import Registry
from docshelf.search.document_names import check_namespace
from docshelf.store.base import ObjectStore

EXIT_OK, EXIT_FAILED = 0, 1
# Documents embedded at a time by Bedrock (one request a chunk, ~50 ms each); the local model uses the CPUs itself.
BEDROCK_WORKERS = 4


@dataclass(frozen=True, slots=True)
class Target:
    """Where a re-sync reads and writes, and with which settings."""

    store: ObjectStore
    index: SearchBackend
    registry: Registry
    config: PipelineConfig
    vectors: VectorCache | None


def resync_options(parser: argparse.ArgumentParser, local: Callable[[argparse.Namespace], LocalServices]) -> None:
    """The `resync` subcommand's options and handler."""
    store_options(parser)
    chunk_options(parser)
    embedding_options(parser)
    parser.add_argument(
        "--aws",
        action="store_true",
        help="the deployed stack (its artifacts bucket, registry table and index) instead of a local store",
    )
    parser.add_argument(
        "--function",
        default="",
        help="with --aws: the stack's PublishFunction (name or ARN), whose environment gives every setting "
        "(default: this process's environment, as the functions read it)",
    )
    parser.add_argument(
        "--batch-documents",
        type=int,
        default=DEFAULT_BATCH_DOCUMENTS,
        help=f"documents a bulk write (default {DEFAULT_BATCH_DOCUMENTS}); progress is recorded after each",
    )
    parser.add_argument("--dry-run", action="store_true", help="say what is due, write nothing")
    parser.add_argument(
        "--embed-ahead",
        metavar="PROVIDER[:MODEL]",
        default="",
        help="only put every published chunk's vectors of that model (local, bedrock, bedrock:MODEL_ID) in the "
        "vector cache, writing nothing else: run it before deploying a new embedding model, and the re-sync after "
        "the deploy only reads them",
    )
    parser.set_defaults(handler=lambda args: cmd_resync(args, local))


def cmd_resync(args: argparse.Namespace, local: Callable[[argparse.Namespace], LocalServices]) -> int:
    """Exit 1 when a document could not be published again (its chunks are missing, or the index refused it)."""
    namespace = validate_namespace(args.namespace)
    if args.batch_documents < 1:
        raise DocshelfError(f"--batch-documents must be at least 1, not {args.batch_documents}")
    embeddings = _embeddings(args.embed_ahead) if args.embed_ahead else None
    if embeddings is not None and not args.aws:
        args.embeddings, args.embedding_model = embeddings
    target = _aws_target(args.function, embeddings) if args.aws else _local_target(local(args))
    check_namespace(namespace, target.registry.namespaces())
    if embeddings is not None:
        return _embed_ahead(target, namespace)
    if args.dry_run:
        print(describe(plan_resync(target.index, target.registry, namespace, config=target.config,
                                   vectors=target.vectors)))  # fmt: skip
        return EXIT_OK
    started = time.perf_counter()
    done = resync_namespace(
        target.store,
        target.index,
        target.registry,
        namespace,
        config=target.config,
        vectors=target.vectors,
        batch_documents=args.batch_documents,
        on_batch=lambda so_far: print(f"{namespace}: {progress(so_far)}", flush=True),
    )
    print(f"{describe(done.plan)}\n{namespace}: {summary(done)} in {time.perf_counter() - started:.1f} s")
    for document_id, reason in sorted({**done.missing, **done.refused}.items()):
        print(shown_line(f"docshelf resync: {document_id}: {reason}"), file=sys.stderr)
    return EXIT_FAILED if done.missing or done.refused else EXIT_OK


def describe(plan: ResyncPlan) -> str:
    """What is due, in one or two lines."""
    name = plan.namespace
    if plan.done:
        text = f"{name}: all {len(plan.published)} published documents are published with the current settings"
    elif plan.whole:
        text = (
            f"{name}: the index holds vectors of another model (or none): all {len(plan.due)} published documents "
            "go in one write"
        )
    else:
        text = f"{name}: {len(plan.due)} of {len(plan.published)} published documents are due"
    if plan.processing:
        text += f"\n{name}: {len(plan.processing)} documents are being ingested; their own publish takes the settings"
    return text


def progress(done: Resynced) -> str:
    handled = len(done.published) + len(done.superseded) + len(done.refused) + len(done.missing)
    return f"{handled}/{len(done.plan.due)} documents"


def summary(done: Resynced) -> str:
    parts = [f"{len(done.published)} documents published again"]
    if done.superseded:
        parts.append(f"{len(done.superseded)} left to a newer upload of theirs")
    if done.refused:
        parts.append(f"{len(done.refused)} refused by the index")
    if done.missing:
        parts.append(f"{len(done.missing)} without stored chunks")
    return ", ".join(parts)


def _local_target(opened: LocalServices) -> Target:
    return Target(opened.store, opened.index, opened.registry, opened.config, opened.vector_cache())


def _embeddings(spec: str) -> tuple[str, str]:
    """`local`, `bedrock` or `bedrock:MODEL_ID` as (provider, model id); a model id may hold colons."""
    provider, _, model = spec.partition(":")
    if provider not in ("local", "bedrock"):
        raise DocshelfError(f"--embed-ahead takes local, bedrock or PROVIDER:MODEL_ID, not {spec!r}")
    return provider, model


def _embed_ahead(target: Target, namespace: str) -> int:
    vectors = target.vectors
    assert vectors is not None  # the provider is local or bedrock
    started = time.perf_counter()
    done = embed_ahead(
        target.store,
        target.registry,
        namespace,
        config=target.config,
        vectors=vectors,
        workers=BEDROCK_WORKERS if vectors.provider.model.provider == "bedrock" else 1,
        on_document=lambda count: (
            print(f"{namespace}: {count} documents embedded", flush=True) if count % 100 == 0 else None
        ),
    )
    model = vectors.provider.model
    print(
        f"{namespace}: vectors of {model.provider}:{model.model_id} for {done.chunks} chunks of {done.documents} "
        f"documents are in the vector cache ({time.perf_counter() - started:.1f} s); the index and registry are as "
        "they were"
    )
    for document_id, reason in sorted(done.missing.items()):
        print(shown_line(f"docshelf resync: {document_id}: {reason}"), file=sys.stderr)
    return EXIT_FAILED if done.missing else EXIT_OK


def _every_hundred(line: str, count: int) -> None:
    if count % 100 == 0:
        print(line, flush=True)


def _aws_target(function_name: str, embeddings: tuple[str, str] | None = None) -> Target:
    from dataclasses import replace

    from docshelf.aws.resync import stack_services
    from docshelf.aws.services import AwsServices

    services = stack_services(function_name)
    if embeddings is not None:
        provider, model = embeddings
        chosen = replace(services.settings.pipeline, embedding_provider=provider, embedding_model_id=model)
        services = AwsServices(replace(services.settings, pipeline=chosen))
    return Target(
        services.store, services.index(), services.registry, services.settings.pipeline, services.vector_cache()
    )
