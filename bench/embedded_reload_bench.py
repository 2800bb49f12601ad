#!/usr/bin/env python3
"""The first search after a publish on the embedded index, as the namespace grows (issue #35, item 3).

S3 (moto, in process) with an injected latency on every GetObject and ListObjectsV2 call (a botocore
`before-call` hook that sleeps; PutObject is left at moto's speed): namespaces of 100, 1,000 and 10,000 small
documents are built, a search-only reader loads each once (the cold load), then a writer (another index over
the same bucket, as a publish function is) publishes a document — added, replaced or deleted in turn — and the
namespace version moves on; the reader's next search is timed (search/service.py, through `reader()` as the
search function calls it), and the search after it. Each size takes several publishes (at least one, more while
its time budget lasts); medians are reported. Then a new reader loads the namespace again (the cold load after the
publishes: from the segments and the log's tail where the code has them), and the writer compacts the namespace
into segments once more, timed (code without segments: skipped).

The local store: a namespace of 2,500 chunks in a folder, 8 reader threads sharing one index (as `docshelf serve`
does) search for a while, with and without one writer publishing a document every 0.2 s; p50 / p95 / max.

`--source DIR` runs the code of another tree (e.g. main's `layers/docshelf`, the serial whole reload);
`--compare DIR` runs this tree and DIR in turn, each in a child process, and prints both side by side.

    python -m bench.embedded_reload_bench --compare /work/main/layers/docshelf [--sizes 100,1000,10000]
    python -m bench.embedded_reload_bench [--source DIR] [--sizes …] [--latency-ms 20] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
NAMESPACE = "bench"
WORDS = [f"w{i}" for i in range(5_000)]
BUILD_BATCH = 500
SEARCH_TIMEOUT_S = 25.0  # template.yaml: SearchFunction Timeout
LOCAL_CHUNKS = 2_500
LOCAL_READERS = 8


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choices(WORDS, k=words))


def _chunks(document: int, revision: int, rng: random.Random, count: int = 1, words: int = 40) -> list[Any]:
    from docshelf.model import Chunk

    return [
        Chunk(
            chunk_id=f"d{document}-r{revision}-{i}", document_id=f"d{document}", namespace=NAMESPACE, type="text",
            text=f"doc{document} rev{revision} " + _text(rng, words), section_path=("Section",), pages=(1,),
            token_count=words, ordinal=i, source_file_name=f"d{document}.txt", revision=f"r{revision}",
        )
        for i in range(count)
    ]  # fmt: skip


def _build(index: Any, documents: int, rng: random.Random, *, chunks_each: int = 1) -> None:
    from docshelf.index.base import DocumentChunks

    for start in range(0, documents, BUILD_BATCH):
        batch = [
            DocumentChunks(f"d{n}", "r0", _chunks(n, 0, rng, chunks_each))
            for n in range(start, min(documents, start + BUILD_BATCH))
        ]
        index.write(NAMESPACE, batch)
    index.commit()


def _search(index: Any, version: int, query: str) -> float:
    from docshelf.search.request import SearchRequest
    from docshelf.search.service import search

    started = time.perf_counter()
    search(index.reader(NAMESPACE, version), SearchRequest(namespace=NAMESPACE, query=query))
    return time.perf_counter() - started


def _publish(writer: Any, documents: int, turn: int, rng: random.Random) -> tuple[str, float]:
    """Add, replace or delete a document in turn; (what was done, seconds)."""
    started = time.perf_counter()
    kind = ("add", "replace", "delete")[turn % 3]
    if kind == "add":
        n = documents + turn
        writer.upsert(NAMESPACE, f"d{n}", f"r{turn}", _chunks(n, turn, rng))
    elif kind == "replace":
        n = rng.randrange(documents)
        writer.upsert(NAMESPACE, f"d{n}", f"r{turn}", _chunks(n, turn, rng))
    else:
        writer.delete(NAMESPACE, f"d{rng.randrange(documents)}")
    return kind, time.perf_counter() - started


def s3_case(documents: int, latency_s: float, budget_s: float, max_publishes: int) -> dict[str, Any]:
    import boto3
    from moto import mock_aws

    from docshelf.index.embedded import EmbeddedIndex
    from docshelf.store.s3 import S3Store

    rng = random.Random(documents)
    delay = {"on": False}

    def slow(**_: Any) -> None:
        if delay["on"]:
            time.sleep(latency_s)

    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="bench-artifacts")
        for operation in ("GetObject", "ListObjectsV2"):
            client.meta.events.register(f"before-call.s3.{operation}", slow)
        gets = {"n": 0}

        def count(**_: Any) -> None:
            gets["n"] += 1

        client.meta.events.register("before-call.s3.GetObject", count)
        store = S3Store("bench-artifacts", client=client)
        writer = EmbeddedIndex(store, prefix="index")
        reader = EmbeddedIndex(store, prefix="index", writes_snapshots=False)
        started = time.perf_counter()
        _build(writer, documents, rng)
        built_s = time.perf_counter() - started
        delay["on"] = True
        version = 1
        gets["n"] = 0
        cold_s = _search(reader, version, "w1 w2 w3")
        cold_gets = gets["n"]
        first: list[float] = []
        following: list[float] = []
        publishes: list[float] = []
        reader_gets: list[int] = []
        kinds: list[str] = []
        spent = time.perf_counter()
        while len(first) < max_publishes and (not first or time.perf_counter() - spent < budget_s):
            kind, published_s = _publish(writer, documents, len(first), rng)
            version += 1
            gets["n"] = 0
            first.append(_search(reader, version, f"w{rng.randrange(5000)} w{rng.randrange(5000)}"))
            reader_gets.append(gets["n"])
            following.append(_search(reader, version, f"w{rng.randrange(5000)}"))
            publishes.append(published_s)
            kinds.append(kind)
        after = _cold_after_publishes(EmbeddedIndex, store, writer, version, gets)
    return {
        "documents": documents,
        "build_s": built_s,
        "cold_load_s": cold_s,
        "cold_gets": cold_gets,
        **after,
        "first_after_publish_s": first,
        "next_search_s": following,
        "publish_s": publishes,
        "reader_gets": reader_gets,
        "kinds": kinds,
    }


def _cold_after_publishes(
    index_type: Any, store: Any, writer: Any, version: int, gets: dict[str, int]
) -> dict[str, Any]:
    """A new reader's first search, with its GETs; then a compaction by the writer (code without: None)."""
    gets["n"] = 0
    cold_s = _search(index_type(store, prefix="index", writes_snapshots=False), version, "w4 w5")
    cold_gets = gets["n"]
    compact_s = None
    if hasattr(writer, "compact"):
        started = time.perf_counter()
        writer.compact(NAMESPACE)
        compact_s = time.perf_counter() - started
    return {"cold_after_publishes_s": cold_s, "cold_after_publishes_gets": cold_gets, "compact_s": compact_s}


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50": ordered[len(ordered) // 2],
        "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        "max": ordered[-1],
    }


def _readers(index: Any, version: Callable[[], int], seconds: float) -> list[float]:
    latencies: list[float] = []
    lock = threading.Lock()

    def run(seed: int) -> None:
        rng = random.Random(seed)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            took = _search(index, version(), f"w{rng.randrange(5000)} w{rng.randrange(5000)}")
            with lock:
                latencies.append(took)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(LOCAL_READERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


def local_case(seconds: float) -> dict[str, Any]:
    from docshelf.index.embedded import EmbeddedIndex
    from docshelf.store import LocalStore

    rng = random.Random(7)
    documents = LOCAL_CHUNKS // 5
    with tempfile.TemporaryDirectory() as root:
        store = LocalStore(root)
        writer = EmbeddedIndex(store)
        _build(writer, documents, rng, chunks_each=5)
        reader = EmbeddedIndex(store, writes_snapshots=False)
        current = {"version": 1}
        _search(reader, 1, "w1")
        quiet = _readers(reader, lambda: current["version"], seconds)
        first: list[float] = []
        following: list[float] = []
        for turn in range(9):
            _publish(writer, documents, turn, rng)
            writer.commit()
            current["version"] += 1
            first.append(_search(reader, current["version"], "w5 w6"))
            following.append(_search(reader, current["version"], "w7 w8"))
        stop = threading.Event()

        def write() -> None:
            turn = 100
            while not stop.is_set():
                _publish(writer, documents, turn, rng)
                writer.commit()  # as `docshelf serve` does after an upload
                current["version"] += 1
                turn += 1
                stop.wait(0.2)

        writing = threading.Thread(target=write)
        writing.start()
        try:
            busy = _readers(reader, lambda: current["version"], seconds)
        finally:
            stop.set()
            writing.join()
    return {
        "chunks": LOCAL_CHUNKS,
        "first_after_publish_s": first,
        "next_search_s": following,
        "readers_quiet": _percentiles(quiet),
        "readers_with_writer": _percentiles(busy),
    }


def run(arguments: argparse.Namespace) -> dict[str, Any]:
    if arguments.source is not None:
        sys.path.insert(0, str(Path(arguments.source).resolve()))
    import docshelf

    result: dict[str, Any] = {"source": str(Path(docshelf.__file__).parent.parent), "latency_ms": arguments.latency_ms}
    result["s3"] = [
        s3_case(int(size), arguments.latency_ms / 1000, arguments.budget_s, arguments.publishes)
        for size in arguments.sizes.split(",")
    ]
    if arguments.local_seconds > 0:
        result["local"] = local_case(arguments.local_seconds)
    return result


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f}"


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(results: dict[str, dict[str, Any]]) -> str:
    names = list(results)
    lines = [
        f"S3 (moto), {next(iter(results.values()))['latency_ms']} ms injected per GetObject and ListObjectsV2; "
        "medians in ms (publishes timed)",
        "",
        "| documents | " + " | ".join(f"{name}: first search after a publish" for name in names) + " | "
        + " | ".join(f"{name}: next search" for name in names) + " | "
        + " | ".join(f"{name}: cold load" for name in names) + " | "
        + " | ".join(f"{name}: GETs by the reader after a publish" for name in names) + " | "
        + " | ".join(f"{name}: publish" for name in names) + " |",
        "|---" * (1 + 5 * len(names)) + "|",
    ]  # fmt: skip
    sizes = [case["documents"] for case in next(iter(results.values()))["s3"]]
    for at, size in enumerate(sizes):
        cases = [results[name]["s3"][at] for name in names]
        cells = [f"{_ms(_median(c['first_after_publish_s']))} ({len(c['first_after_publish_s'])})" for c in cases]
        cells += [_ms(_median(c["next_search_s"])) for c in cases]
        cells += [_ms(c["cold_load_s"]) for c in cases]
        cells += [f"{_median(c['reader_gets']):,.0f}" for c in cases]
        cells += [_ms(_median(c["publish_s"])) for c in cases]
        lines.append(f"| {size:,} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Cold load (a new reader's first search; ms, with its GETs in brackets); compaction by the writer (ms)",
        "",
        "| documents | " + " | ".join(f"{name}: cold load after the build" for name in names) + " | "
        + " | ".join(f"{name}: cold load after the publishes" for name in names) + " | "
        + " | ".join(f"{name}: compaction" for name in names) + " |",
        "|---" * (1 + 3 * len(names)) + "|",
    ]  # fmt: skip
    for at, size in enumerate(sizes):
        cases = [results[name]["s3"][at] for name in names]
        cells = [f"{_ms(c['cold_load_s'])} ({c['cold_gets']:,})" for c in cases]
        cells += [f"{_ms(c['cold_after_publishes_s'])} ({c['cold_after_publishes_gets']:,})" for c in cases]
        cells += ["–" if c.get("compact_s") is None else _ms(c["compact_s"]) for c in cases]
        lines.append(f"| {size:,} | " + " | ".join(cells) + " |")
    local = {name: result["local"] for name, result in results.items() if "local" in result}
    if local:
        lines += [
            "",
            f"Local store, {LOCAL_CHUNKS:,} chunks; ms",
            "",
            "| code | first search after a publish (median) | next search (median) | "
            f"{LOCAL_READERS} readers p50 / p95 / max | {LOCAL_READERS} readers beside a writer p50 / p95 / max |",
            "|---|---|---|---|---|",
        ]
        for name, case in local.items():
            quiet, busy = case["readers_quiet"], case["readers_with_writer"]
            lines.append(
                f"| {name} | {_ms(_median(case['first_after_publish_s']))} | {_ms(_median(case['next_search_s']))} | "
                f"{_ms(quiet['p50'])} / {_ms(quiet['p95'])} / {_ms(quiet['max'])} | "
                f"{_ms(busy['p50'])} / {_ms(busy['p95'])} / {_ms(busy['max'])} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000,10000", help="documents per namespace, comma-separated")
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--publishes", type=int, default=5, help="publishes timed per size at most")
    parser.add_argument("--budget-s", type=float, default=60.0, help="no further publish once a size took this long")
    parser.add_argument("--local-seconds", type=float, default=8.0, help="readers' run time locally (0: skip)")
    parser.add_argument("--source", help="the docshelf package root of another tree (its layers/docshelf)")
    parser.add_argument("--compare", help="run this tree and the one at COMPARE, each in a child process")
    parser.add_argument("--json", type=Path, help="write the raw figures here")
    arguments = parser.parse_args()
    if arguments.compare:
        results = {}
        for name, source in (("before", arguments.compare), ("after", str(REPO / "layers" / "docshelf"))):
            command = [sys.executable, __file__, "--source", source, "--json", "/dev/stdout"]
            for option in ("sizes", "latency_ms", "publishes", "budget_s", "local_seconds"):
                command += [f"--{option.replace('_', '-')}", str(getattr(arguments, option))]
            output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            results[name] = json.loads(output.strip().splitlines()[-1])
            print(f"{name}: done", file=sys.stderr, flush=True)
    else:
        results = {"this": run(arguments)}
    if arguments.json is not None:
        text = json.dumps(results if arguments.compare else results["this"])
        if str(arguments.json) == "/dev/stdout":
            print(text)
            return
        arguments.json.write_text(text)
    print(table(results))


if __name__ == "__main__":
    main()
