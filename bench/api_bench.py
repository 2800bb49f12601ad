"""Search latency through the API handler (the resolver both the Lambda and `docshelf serve` run), with the
local backend: no cache, cache miss and cache hit, p50/p95 over the example queries. Run:
`python bench/api_bench.py` (also from `make bench`). Figures are from this machine, in this process.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from docshelf.api.auth import ClaimNames  # noqa: E402
from docshelf.api.local import LocalApiBackend  # noqa: E402
from docshelf.api.resolver import build_resolver, handle  # noqa: E402
from docshelf.cli import iter_files  # noqa: E402
from docshelf.local import LocalServices  # noqa: E402

EXAMPLES = REPO / "examples" / "docs"
QUERIES = REPO / "examples" / "queries.txt"
ROUNDS = 5


def search_event(query: str, user: str) -> dict[str, Any]:
    return {
        "version": "2.0",
        "routeKey": "POST /search",
        "rawPath": "/search",
        "rawQueryString": "",
        "headers": {"content-type": "application/json"},
        "requestContext": {
            "authorizer": {"jwt": {"claims": {"sub": user, "namespaces": "[bench]"}, "scopes": None}},
            "http": {"method": "POST", "path": "/search", "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
            "requestId": "bench",
            "routeKey": "POST /search",
            "stage": "$default",
        },
        "body": json.dumps({"namespace": "bench", "query": query, "top_k": 8, "max_tokens": 2000}),
        "isBase64Encoded": False,
    }


def timed_ms(app: Any, event: dict[str, Any]) -> tuple[float, str]:
    started = time.perf_counter()
    response = handle(app, event, None)
    elapsed = (time.perf_counter() - started) * 1000
    if response["statusCode"] != 200:
        raise RuntimeError(f"search failed: {response['body']}")
    return elapsed, str(json.loads(response["body"])["cache"])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(root: Path) -> dict[str, list[float]]:
    services = LocalServices.open(root / "store")
    for file, key in iter_files([EXAMPLES]):
        services.ingest(file.read_bytes(), namespace="bench", source_key=key)
    queries = [line.strip() for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    uncached = LocalApiBackend(services, cache_ttl_s=0)
    cached = LocalApiBackend(services, cache_ttl_s=3600)
    no_cache_app = build_resolver(lambda: uncached, ClaimNames)
    cache_app = build_resolver(lambda: cached, ClaimNames)
    for query in queries:  # warm the index and the resolver
        timed_ms(no_cache_app, search_event(query, "warmup"))
    samples: dict[str, list[float]] = {"no cache": [], "cache miss": [], "cache hit": []}
    for round_number in range(ROUNDS):
        for query in queries:
            samples["no cache"].append(timed_ms(no_cache_app, search_event(query, "u"))[0])
            user = f"user-{round_number}"  # a new user: a new cache key, so a miss
            miss, state = timed_ms(cache_app, search_event(query, user))
            assert state == "miss"
            hit, state = timed_ms(cache_app, search_event(query, user))
            assert state == "hit"
            samples["cache miss"].append(miss)
            samples["cache hit"].append(hit)
    return samples


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        samples = measure(Path(folder))
    print(f"search through the API handler, local backend, {len(samples['no cache'])} searches each")
    print("| path       | p50 ms | p95 ms | mean ms |")
    print("|------------|--------|--------|---------|")
    for name, values in samples.items():
        print(
            f"| {name:<10} | {percentile(values, 0.5):6.2f} | {percentile(values, 0.95):6.2f} "
            f"| {statistics.fmean(values):7.2f} |"
        )


if __name__ == "__main__":
    main()
