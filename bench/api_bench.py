"""The search API's latency in process and over HTTP.

1. Through the API handler (the resolver both the Lambda and `docshelf serve` run), with the local backend: no
   cache, cache miss and cache hit, p50/p95 over the example queries, in this process.
2. Against a real `docshelf serve --no-auth --cache-ttl 0` this bench starts on 127.0.0.1 over the example
   documents (`bench/api_http_load.py`): 16 keep-alive clients for --duration seconds, a burst of 64 new
   connections at once, and one keep-alive connection's p50 against the server's own `took_ms` median.
   `--server-code DIR` (repeatable) runs the server from another checkout's `layers/docshelf`, so two servers
   are compared in one run.
3. The same searches through the MCP `search` tool at /mcp of one such server against POST /search,
   interleaved (`bench/mcp_latency.py`; `--skip-mcp` leaves it out).

Run: `python -m bench.api_bench [--duration 30] [--server-code /other/checkout/layers/docshelf]` (also from
`make bench`). Loopback only; every loop is bounded by a count or the duration.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from docshelf.api.auth import ClaimNames  # noqa: E402
from docshelf.api.resolver import build_resolver, handle  # noqa: E402
from docshelf.local.api_services import LocalApiServices  # noqa: E402
from docshelf.local.services import LocalServices  # noqa: E402
from docshelf.local.sources import list_sources  # noqa: E402

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
    for source in list_sources([EXAMPLES]).files:
        services.ingest(source.path.read_bytes(), namespace="bench", source_key=source.key)
    queries = [line.strip() for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    uncached = LocalApiServices(services, cache_ttl_s=0)
    cached = LocalApiServices(services, cache_ttl_s=3600)
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


def print_handler_table(samples: dict[str, list[float]]) -> None:
    print(f"search through the API handler, local backend, {len(samples['no cache'])} searches each")
    print("| path       | p50 ms | p95 ms | mean ms |")
    print("|------------|--------|--------|---------|")
    for name, values in samples.items():
        print(
            f"| {name:<10} | {percentile(values, 0.5):6.2f} | {percentile(values, 0.95):6.2f} "
            f"| {statistics.fmean(values):7.2f} |"
        )


def main() -> None:
    from bench.api_http_load import run_http_bench

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of the 16-client load")
    parser.add_argument("--server-code", action="append", type=Path, default=[], help="another layers/docshelf")
    parser.add_argument("--skip-handler", action="store_true", help="only the HTTP part")
    parser.add_argument("--skip-mcp", action="store_true", help="no MCP-over-serve comparison (bench/mcp_latency.py)")
    args = parser.parse_args()
    if not EXAMPLES.is_dir():
        subprocess.run([sys.executable, str(REPO / "examples" / "make_examples.py"), str(EXAMPLES)], check=True)
    if not args.skip_handler:
        with tempfile.TemporaryDirectory() as folder:
            print_handler_table(measure(Path(folder)))
        print()
    codes = [REPO / "layers" / "docshelf", *args.server_code]
    run_http_bench(codes, EXAMPLES, [q for q in QUERIES.read_text(encoding="utf-8").splitlines() if q.strip()],
                   duration_s=args.duration)  # fmt: skip
    if not args.skip_mcp:
        from bench.mcp_latency import print_mcp_table, run_mcp_bench

        print()
        queries = [q.strip() for q in QUERIES.read_text(encoding="utf-8").splitlines() if q.strip()]
        print_mcp_table(run_mcp_bench(REPO / "layers" / "docshelf", queries, rounds=20))


if __name__ == "__main__":
    main()
