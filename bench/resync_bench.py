#!/usr/bin/env python3
"""What `docshelf resync --aws` costs per document: AWS requests by operation, embedding time and wall time, on moto.

    nice -n 10 .venv/bin/python -m bench.resync_bench [--documents N] [--no-opensearch]

N Markdown reports (default 100, four sections of about 120 words each: one or two 500-token chunks) are
ingested through the functions (tests/functional/aws/harness.py) with no embeddings and the embedded index. Then:

1. the stack's EmbeddingProvider becomes `local` (the ONNX model of the EmbeddingsLayer, when installed; else the
   tests' hash embedder) and the namespace is re-synced: every chunk embedded, the namespace written at once;
2. the same re-sync again (nothing due);
3. with a local OpenSearch node (OPENSEARCH_URL), the engine becomes OpenSearch and the namespace is re-synced in
   batches of 25, its vectors read from the vector cache.

Printed per scenario: requests per document by AWS operation (counted on the boto3 clients), passages embedded, and
the median of `--repeats` wall times against the run's own ingest time per document (timings on a shared machine
are noisy; the request counts are exact).
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from io import StringIO
from typing import Any, cast

WORDS = ["pump", "valve", "seal", "bearing", "motor", "gasket", "filter", "sensor", "pressure", "flow", "inspect",
         "replace", "record", "measure", "torque", "clearance", "lubricate", "calibrate", "isolate", "drain", "vent",
         "flush", "align", "tighten"]  # fmt: skip


def report(n: int) -> bytes:
    sections = []
    for s in range(4):
        words = [WORDS[(n * 7 + s * 13 + i * 5) % len(WORDS)] for i in range(120)]
        sections.append(f"## Section {s} of report {n}\n\n{' '.join(words)}.")
    return (f"# Report {n}\n\n" + "\n\n".join(sections)).encode()


@contextmanager
def counted_requests() -> Iterator[Counter[str]]:
    """Every AWS request boto3 makes meanwhile, as `service.Operation` -> count."""
    import boto3

    counts: Counter[str] = Counter()

    def count(event_name: str, **details: Any) -> None:
        _, service, operation = event_name.split(".", 2)  # before-call.<service>.<Operation>
        counts[f"{service}.{operation}"] += 1

    session = boto3._get_default_session()
    session.events.register("before-call.*.*", count)
    try:
        yield counts
    finally:
        session.events.unregister("before-call.*.*", count)


def settle(pipeline: Any) -> None:
    """Run the functions on their queues until all three are empty (Pipeline.drain stops after 20 rounds)."""
    busy = True
    while busy:
        busy = False
        for stage in ("parse", "chunk", "publish"):
            messages = pipeline.receive(stage)
            if messages:
                busy = True
                pipeline.run(stage, messages)


def embedder() -> tuple[Any, str]:
    from docshelf.embeddings.catalog import DEFAULT_LOCAL_MODEL, find_model_dir

    if find_model_dir(DEFAULT_LOCAL_MODEL) is not None:
        from docshelf.embeddings.local import LocalProvider

        return LocalProvider.load(None), f"local {DEFAULT_LOCAL_MODEL}"
    from tests.embedding_fakes import ConceptEmbedder

    return ConceptEmbedder(), "hash embedder (the local model is not installed)"


class Counting:
    def __init__(self, provider: Any) -> None:
        self.provider, self.model, self.passages, self.seconds = provider, provider.model, 0, 0.0

    def embed_passages(self, texts: Any) -> Any:
        started = time.perf_counter()
        try:
            return self.provider.embed_passages(texts)
        finally:
            self.passages += len(texts)
            self.seconds += time.perf_counter() - started

    def embed_query(self, text: str) -> Any:
        return self.provider.embed_query(text)


def resync(argv: list[str]) -> tuple[float, str]:
    from docshelf.local.cli import main

    out = StringIO()
    started = time.perf_counter()
    with redirect_stdout(out):
        code = main(argv)
    if code != 0:
        raise SystemExit(f"resync failed ({code}): {out.getvalue()}")
    return time.perf_counter() - started, out.getvalue().strip().splitlines()[-1]


def scenario(name: str, documents: int, run: Callable[[], tuple[float, str]], provider: Counting | None) -> None:
    before = (provider.passages, provider.seconds) if provider else (0, 0.0)
    with counted_requests() as counts:
        seconds, said = run()
    print(f"\n{name}\n  {said}\n  wall {seconds:.2f} s = {1000 * seconds / documents:.1f} ms a document")
    if provider is not None and provider.passages > before[0]:
        passages, spent = provider.passages - before[0], provider.seconds - before[1]
        print(f"  embedded {passages} passages in {spent:.1f} s ({passages / spent:.1f} passages/s)")
    for operation, count in sorted(counts.items()):
        print(f"  {operation:32} {count:6}  {count / documents:6.2f} a document")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--no-opensearch", action="store_true")
    args = parser.parse_args()
    fake_aws = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
                "AWS_REGION": "us-east-1", "POWERTOOLS_METRICS_NAMESPACE": "docshelf",
                "POWERTOOLS_TRACE_DISABLED": "true"}  # fmt: skip
    os.environ.update(fake_aws)
    import boto3
    import moto

    from docshelf.aws.services import AwsServices
    from tests.functional.aws.conftest import OPENSEARCH_URL, PASSTHROUGH
    from tests.functional.aws.harness import Pipeline
    from tests.functional.aws.template_resources import TemplateStack

    provider, model = embedder()
    counting = Counting(provider)
    with moto.mock_aws(config=cast("Any", PASSTHROUGH)):
        stack = TemplateStack(boto3.session.Session(region_name="us-east-1")).create()
        pipeline = Pipeline(stack)
        for n in range(args.documents):
            pipeline.upload(f"demo/report-{n:05d}.md", report(n))
        started = time.perf_counter()
        with redirect_stdout(StringIO()):  # the functions' structured logs
            settle(pipeline)
        ingest = time.perf_counter() - started
        chunks = sum(r.chunk_count for r in pipeline.registry().list("demo"))
        print(f"{args.documents} documents, {chunks} chunks; embedder: {model}")
        print(f"ingest through the functions (no embeddings): {1000 * ingest / args.documents:.1f} ms a document")

        def deploy(**environment: str) -> None:
            for name, value in {**stack.function_environment("PublishFunction"), **environment}.items():
                os.environ[name] = value

        deploy(EMBEDDING_PROVIDER="local")
        AwsServices.embedding_provider = lambda self: counting  # type: ignore[method-assign]
        argv = ["resync", "--namespace", "demo", "--aws"]
        scenario("1. EmbeddingProvider none -> local (one write)", args.documents, lambda: resync(argv), counting)
        scenario("2. the same re-sync again", args.documents, lambda: resync(argv), counting)
        if not args.no_opensearch:
            from opensearchpy.exceptions import ConnectionError as NoNode

            from docshelf.index.opensearch import OpenSearchIndex
            from docshelf.index.opensearch.client import opensearch_client

            prefix = f"docshelfbench-resync-{uuid.uuid4().hex[:8]}"
            client = opensearch_client(OPENSEARCH_URL)
            try:
                client.info()
            except NoNode:
                print(f"\n3. skipped: no OpenSearch node at {OPENSEARCH_URL}")
                return
            deploy(EMBEDDING_PROVIDER="local", OPENSEARCH_ENDPOINT=OPENSEARCH_URL, OPENSEARCH_INDEX=prefix)
            try:
                scenario("3. embedded -> OpenSearch (batches of 25, vectors cached)", args.documents,
                         lambda: resync([*argv, "--batch-documents", "25"]), counting)  # fmt: skip
            finally:
                OpenSearchIndex(client, index=prefix).drop_index()


if __name__ == "__main__":
    main()
