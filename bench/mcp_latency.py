"""What MCP adds to a search on `docshelf serve`: the same query through `POST /search` and through the MCP
`search` tool at `/mcp`, interleaved on one server (cache off, so each call searches), p50s and the gap.

Two MCP clients: a raw JSON-RPC `tools/call` POST on a keep-alive connection (what the server adds), and the MCP
SDK's own client (`mcp.Client` over streamable HTTP; what an assistant sees, the SDK's client work included).
Run: `python -m bench.mcp_latency [--rounds 20]` (also from `python -m bench.api_bench`). Loopback only; every
loop is bounded by --rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from bench.api_http_load import REQUEST_TIMEOUT_S, Server, search_body  # noqa: E402

EXAMPLES = REPO / "examples" / "docs"
QUERIES = REPO / "examples" / "queries.txt"
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def timed_post(connection: http.client.HTTPConnection, path: str, body: bytes, headers: dict[str, str]) -> float:
    started = time.perf_counter()
    connection.request("POST", path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}: {data[:300]!r}")
    if path == "/mcp" and json.loads(data).get("result", {}).get("isError"):
        raise RuntimeError(f"the MCP search failed: {data[:300]!r}")
    return elapsed


def tool_call(query: str, number: int) -> bytes:
    arguments = {"query": query, "namespace": "bench", "top_k": 8, "max_tokens": 2000}
    message = {
        "jsonrpc": "2.0",
        "id": number,
        "method": "tools/call",
        "params": {"name": "search", "arguments": arguments},
    }
    return json.dumps(message).encode()


def raw_rounds(port: int, queries: list[str], rounds: int) -> dict[str, list[float]]:
    api = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    mcp = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    samples: dict[str, list[float]] = {"POST /search": [], "MCP tools/call (raw JSON-RPC)": []}
    json_headers = {"Content-Type": "application/json"}
    try:
        for query in queries:  # warm both paths
            timed_post(api, "/search", search_body(query), json_headers)
            timed_post(mcp, "/mcp", tool_call(query, 0), MCP_HEADERS)
        for number in range(rounds * len(queries)):
            query = queries[number % len(queries)]
            first, second = ("api", "mcp") if number % 2 == 0 else ("mcp", "api")  # alternate who goes first
            for which in (first, second):
                if which == "api":
                    samples["POST /search"].append(timed_post(api, "/search", search_body(query), json_headers))
                else:
                    elapsed = timed_post(mcp, "/mcp", tool_call(query, number + 1), MCP_HEADERS)
                    samples["MCP tools/call (raw JSON-RPC)"].append(elapsed)
    finally:
        api.close()
        mcp.close()
    return samples


def sdk_rounds(port: int, queries: list[str], rounds: int) -> list[float]:
    from mcp import Client

    async def run() -> list[float]:
        times: list[float] = []
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            for query in queries:
                await client.call_tool("search", {"query": query, "namespace": "bench"})
            for number in range(rounds * len(queries)):
                started = time.perf_counter()
                result = await client.call_tool(
                    "search", {"query": queries[number % len(queries)], "namespace": "bench"}
                )
                times.append((time.perf_counter() - started) * 1000)
                if result.is_error:
                    raise RuntimeError("the MCP search failed")
        return times

    return asyncio.run(run())


def run_mcp_bench(code: Path, queries: list[str], rounds: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(code, EXAMPLES, Path(folder))
        try:
            samples = raw_rounds(server.port, queries, rounds)
            samples["MCP SDK client call_tool"] = sdk_rounds(server.port, queries, rounds)
        finally:
            server.stop()
    return samples


def print_mcp_table(samples: dict[str, Any]) -> None:
    base = statistics.median(samples["POST /search"])
    print(f"search on docshelf serve (cache off), {len(samples['POST /search'])} calls a path, interleaved")
    print("| path | p50 ms | p90 ms | p50 over POST /search |")
    print("|---|---|---|---|")
    for name, values in samples.items():
        ordered = sorted(values)
        p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
        gap = statistics.median(values) - base
        print(f"| {name} | {statistics.median(values):.2f} | {p90:.2f} | {gap:+.2f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="passes over the example queries")
    args = parser.parse_args()
    queries = [line.strip() for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not EXAMPLES.is_dir():
        subprocess.run([sys.executable, str(REPO / "examples" / "make_examples.py"), str(EXAMPLES)], check=True)
    print_mcp_table(run_mcp_bench(REPO / "layers" / "docshelf", queries, args.rounds))


if __name__ == "__main__":
    main()
