"""What a deployed stack costs per 1,000 documents ingested and per 1,000 searches, from what the functions do on
moto: every AWS request they make (counted through botocore's hooks), the messages the queues carry, and how
long each handler runs here, priced with list prices stated below (us-east-1, check current pricing).

    python -m bench.aws_cost [--documents N] [--searches N]

The documents are the example documents (`examples/make_examples.py`) and, when `../shared/corpus` is present,
a spread of its readable files (every format, the broken ones left out). Assumptions, printed with the table:
a handler's duration on Lambda is its wall time here (moto answers in process, so S3 and DynamoDB round trips
cost less here and the CPU more; one 2-core machine shared with other work), billed at the function's memory in
template.yaml; each SQS message costs a send, a receive and a delete; S3 events to EventBridge are free.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter, defaultdict
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any, cast

from bench.resync_bench import counted_requests, settle

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
STAGE_FUNCTIONS = {"parse": "ParseFunction", "chunk": "ChunkFunction", "publish": "PublishFunction",
                   "search": "SearchFunction"}  # fmt: skip
# us-east-1 list prices (USD) as written down on 2026-12-04; check current pricing before relying on them
PRICES = {
    "lambda_gb_second": 0.0000166667,  # x86
    "lambda_request": 0.20 / 1e6,
    "s3_put_list": 0.005 / 1000,  # PUT, COPY, POST, LIST
    "s3_get": 0.0004 / 1000,  # GET, HEAD and the rest
    "dynamodb_write": 0.625 / 1e6,  # on demand, per write request unit (1 KB)
    "dynamodb_read": 0.125 / 1e6,  # on demand, per read request unit (4 KB, strongly consistent)
    "sqs_request": 0.40 / 1e6,
    "http_api_request": 1.00 / 1e6,
}
CORPUS_FORMATS = (".pdf", ".docx", ".pptx", ".xlsx", ".csv", ".html", ".md", ".txt", ".json", ".xml", ".epub", ".odt")
QUERIES = ("pump maintenance interval", "torque for M12 bolts", "what changed in version 2.3.1",
           "stem seal kit part number", "annual leave for new hires")  # fmt: skip


def documents(limit: int) -> list[tuple[str, bytes]]:
    """(key, bytes): the example documents, then the corpus's readable files, a format at a time in turn."""
    from examples.make_examples import main as make_examples

    with tempfile.TemporaryDirectory(prefix="docshelf-cost-") as made, redirect_stdout(StringIO()):
        folder = Path(made)
        make_examples(folder)
        found = [(f"demo/examples/{p.name}", p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()]
    by_format: dict[str, list[Path]] = defaultdict(list)
    broken = _broken_corpus_files()
    if CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("*")):
            readable = path.is_file() and path.suffix.lower() in CORPUS_FORMATS and path.name not in broken
            if readable and path.stat().st_size <= 20 * 1024 * 1024:
                by_format[path.suffix.lower()].append(path)
    while len(found) < limit and any(by_format.values()):
        for paths in by_format.values():
            if paths and len(found) < limit:
                path = paths.pop(0)
                found.append((f"demo/corpus/{path.relative_to(CORPUS).as_posix()}", path.read_bytes()))
    return found[:limit]


def _broken_corpus_files() -> set[str]:
    """Files MANIFEST.tsv tags as broken, encrypted or scanned: they end early and would flatter the cost."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return set()
    names = set()
    for line in manifest.read_text(encoding="utf-8").splitlines()[1:]:
        columns = line.split("\t")
        if any(tag in line.lower() for tag in ("corrupt", "encrypted", "broken", "truncated", "empty")):
            names.add(Path(columns[0]).name)
    return names


def timed_invokes(pipeline: Any) -> dict[str, list[float]]:
    """Wraps the pipeline's handler calls: wall seconds of each, by stage."""
    seconds: dict[str, list[float]] = defaultdict(list)
    invoke = pipeline.invoke

    def timed(stage: str, event: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            return cast("dict[str, Any]", invoke(stage, event))
        finally:
            seconds[stage].append(time.perf_counter() - started)

    pipeline.invoke = timed
    return seconds


def memory_mb(stack: Any, function: str) -> int:
    value = stack.template["Resources"][function]["Properties"].get("MemorySize", 1024)
    return int(value) if isinstance(value, int) else 1024  # an !If keeps the embeddings-off size, 1024


def request_cost(counts: Counter[str]) -> dict[str, float]:
    s3_put = sum(n for op, n in counts.items() if op.startswith("s3.") and op.split(".")[1].startswith(
        ("Put", "Copy", "List", "Create", "Complete", "Upload", "Delete")))  # fmt: skip
    s3_get = sum(n for op, n in counts.items() if op.startswith("s3.")) - s3_put
    dynamo_write = sum(n for op, n in counts.items() if op.startswith("dynamodb.") and op.split(".")[1] in (
        "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"))  # fmt: skip
    dynamo_read = sum(n for op, n in counts.items() if op.startswith("dynamodb.")) - dynamo_write
    sqs = sum(n for op, n in counts.items() if op.startswith("sqs."))
    return {
        "S3": s3_put * PRICES["s3_put_list"] + s3_get * PRICES["s3_get"],
        "DynamoDB": dynamo_write * PRICES["dynamodb_write"] + dynamo_read * PRICES["dynamodb_read"],
        "SQS (sent by the functions)": sqs * PRICES["sqs_request"],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=40)
    parser.add_argument("--searches", type=int, default=50)
    args = parser.parse_args(argv)
    os.environ.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
                       "POWERTOOLS_METRICS_NAMESPACE": "docshelf", "POWERTOOLS_TRACE_DISABLED": "true"})  # fmt: skip
    import logging

    import boto3
    import moto

    logging.disable(logging.INFO)  # the functions' structured logs

    from tests.functional.aws.conftest import recorded_calls
    from tests.functional.aws.harness import Pipeline
    from tests.functional.aws.recorded_calls import uninstall_recorder
    from tests.functional.aws.template_resources import TemplateStack

    files = documents(args.documents)
    with moto.mock_aws():
        recorded_calls()  # the permission check the harness runs on every invoke
        try:
            stack = TemplateStack(boto3.session.Session(region_name="us-east-1")).create()
            pipeline = Pipeline(stack)
            for key, data in files:
                pipeline.upload(key, data)
            seconds = timed_invokes(pipeline)
            with counted_requests() as ingest_counts, redirect_stdout(StringIO()):
                settle(pipeline)
            records = pipeline.registry().list("demo")
            with counted_requests() as search_counts, redirect_stdout(StringIO()):
                for n in range(args.searches):
                    started = time.perf_counter()
                    pipeline.search(f"{QUERIES[n % len(QUERIES)]} {n}")  # distinct, so every search misses the cache
                    seconds["search"].append(time.perf_counter() - started)
        finally:
            uninstall_recorder()
    report(stack, files, records, seconds, ingest_counts, search_counts, args.searches)


def report(stack: Any, files: list[tuple[str, bytes]], records: list[Any], seconds: dict[str, list[float]],
           ingest_counts: Counter[str], search_counts: Counter[str], searches: int) -> None:  # fmt: skip
    statuses = Counter(record.status for record in records)
    per = 1000 / len(files)
    print(f"{len(files)} documents ({sum(len(d) for _, d in files) / 1e6:.1f} MB; {dict(statuses)}), "
          f"{sum(r.chunk_count for r in records)} chunks; {searches} searches, every one a cache miss\n")  # fmt: skip
    print("| per 1,000 documents ingested | count or seconds | USD |\n| --- | --- | --- |")
    total = 0.0
    for stage in ("parse", "chunk", "publish"):
        function = STAGE_FUNCTIONS[stage]
        gb_seconds = sum(seconds[stage]) * memory_mb(stack, function) / 1024 * per
        invocations = len(seconds[stage]) * per
        cost = gb_seconds * PRICES["lambda_gb_second"] + invocations * PRICES["lambda_request"]
        total += cost
        print(f"| {function} ({memory_mb(stack, function)} MB) | {sum(seconds[stage]) * per:,.0f} s, "
              f"{invocations:,.0f} invocations | {cost:.4f} |")  # fmt: skip
    messages = sum(len(seconds[stage]) for stage in ("parse", "chunk", "publish")) * per  # a batch of one or more
    for name, cost in request_cost(Counter({op: n * per for op, n in ingest_counts.items()})).items():
        total += cost
        print(f"| {name} | | {cost:.4f} |")
    queue_cost = 3 * 3 * 1000 * PRICES["sqs_request"]  # three queues, a send, a receive and a delete each
    total += queue_cost
    print(f"| SQS messages (3 queues x send, receive, delete) | 9,000 requests | {queue_cost:.4f} |")
    print(f"| **total** | | **{total:.3f}** |")
    print(f"\n({messages:,.0f} handler invocations per 1,000 documents here: the harness hands a batch of up to 10)")
    print("\n| per 1,000 searches (cache misses) | seconds | USD |\n| --- | --- | --- |")
    per_search = 1000 / searches
    gb_seconds = sum(seconds["search"]) * per_search * memory_mb(stack, "SearchFunction") / 1024
    search_total = gb_seconds * PRICES["lambda_gb_second"] + 1000 * PRICES["lambda_request"]
    print(f"| SearchFunction ({memory_mb(stack, 'SearchFunction')} MB) | {sum(seconds['search']) * per_search:,.1f} | "
          f"{search_total:.4f} |")  # fmt: skip
    for name, cost in request_cost(Counter({op: n * per_search for op, n in search_counts.items()})).items():
        search_total += cost
        print(f"| {name} | | {cost:.4f} |")
    search_total += 1000 * PRICES["http_api_request"]
    print(f"| HTTP API requests | | {1000 * PRICES['http_api_request']:.4f} |")
    print(f"| **total** | | **{search_total:.4f}** |")
    print(
        "\nrequests a document: " + ", ".join(f"{op} {n / len(files):.1f}" for op, n in sorted(ingest_counts.items()))
    )
    print("requests a search: " + ", ".join(f"{op} {n / searches:.1f}" for op, n in sorted(search_counts.items())))


if __name__ == "__main__":
    main()
