"""HTTP load on a real `docshelf serve` on 127.0.0.1 (used by `bench/api_bench.py`, which documents it).

Each server runs in its own interpreter from the given `layers/docshelf` folder, over a store that folder's own
`docshelf ingest` built from the example documents, with the cache off so every request is a real search.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

CLIENTS = 16
BURST = 64
BURST_ROUNDS = 3
KEEPALIVE_REQUESTS = 300
STARTUP_TIMEOUT_S = 60
REQUEST_TIMEOUT_S = 30
RESET_ERRORS = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError, http.client.RemoteDisconnected)


@dataclass
class Tally:
    latencies_ms: list[float] = field(default_factory=list)
    took_ms: list[float] = field(default_factory=list)
    resets: int = 0
    server_errors: int = 0
    other_errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, other: Tally) -> None:
        with self.lock:
            self.latencies_ms += other.latencies_ms
            self.took_ms += other.took_ms
            self.resets += other.resets
            self.server_errors += other.server_errors
            self.other_errors += other.other_errors


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`docshelf serve` from `code` (a layers/docshelf folder) in a subprocess, over the example documents."""

    def __init__(self, code: Path, examples: Path, folder: Path) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(code), "DOCSHELF_SKIP_OPENSEARCH": "1"}
        store = folder / "store"
        cli = [sys.executable, "-m", "docshelf.local.cli"]
        ingest = [*cli, "ingest", str(examples), "--store", str(store), "--namespace", "bench", "--quiet"]
        subprocess.run(ingest, env=env, check=True, stdout=subprocess.DEVNULL)
        serve = [*cli, "serve", "--no-auth", "--cache-ttl", "0", "--store", str(store), "--port", str(self.port)]
        self.log = (folder / "serve.log").open("wb")
        self.process = subprocess.Popen(serve, env=env, stdout=self.log, stderr=self.log)
        self._wait_until_up(folder / "serve.log")

    def _wait_until_up(self, log: Path) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"docshelf serve exited: {log.read_text(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("docshelf serve did not start listening")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.log.close()


def search_body(query: str) -> bytes:
    return json.dumps({"namespace": "bench", "query": query, "top_k": 8, "max_tokens": 2000}).encode()


def one_search(connection: http.client.HTTPConnection, query: str, tally: Tally) -> None:
    started = time.perf_counter()
    connection.request("POST", "/search", body=search_body(query), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    tally.latencies_ms.append((time.perf_counter() - started) * 1000)
    if response.status >= 500:
        tally.server_errors += 1
    elif response.status == 200:
        tally.took_ms.append(float(json.loads(data)["took_ms"]))
    else:
        tally.other_errors += 1


def client_loop(port: int, queries: list[str], offset: int, until: float, total: Tally) -> None:
    """One keep-alive client searching until `until`; a reset connection is counted and opened again."""
    tally = Tally()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    count = offset
    while time.monotonic() < until:
        try:
            one_search(connection, queries[count % len(queries)], tally)
        except RESET_ERRORS:
            tally.resets += 1
            connection.close()
        except OSError:
            tally.other_errors += 1
            connection.close()
        count += 1
    connection.close()
    total.add(tally)


def burst_client(port: int, query: str, barrier: threading.Barrier, total: Tally) -> None:
    """A new connection at the same moment as all the others, one search on it."""
    tally = Tally()
    try:
        barrier.wait(timeout=REQUEST_TIMEOUT_S)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
        try:
            one_search(connection, query, tally)
        finally:
            connection.close()
    except RESET_ERRORS:
        tally.resets += 1
    except (OSError, threading.BrokenBarrierError):
        tally.other_errors += 1
    total.add(tally)


def run_threads(threads: list[threading.Thread], timeout_s: float) -> float:
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout_s)
    return time.perf_counter() - started


def concurrent_load(port: int, queries: list[str], duration_s: float) -> tuple[Tally, float]:
    total = Tally()
    until = time.monotonic() + duration_s
    threads = [
        threading.Thread(target=client_loop, args=(port, queries, n * 7, until, total), daemon=True)
        for n in range(CLIENTS)
    ]
    return total, run_threads(threads, duration_s + REQUEST_TIMEOUT_S + 5)


def burst_load(port: int, queries: list[str]) -> tuple[Tally, float]:
    total = Tally()
    elapsed = 0.0
    for round_number in range(BURST_ROUNDS):
        barrier = threading.Barrier(BURST)
        threads = [
            threading.Thread(
                target=burst_client, args=(port, queries[(n + round_number) % len(queries)], barrier, total)
            )
            for n in range(BURST)
        ]
        elapsed += run_threads(threads, 2 * REQUEST_TIMEOUT_S + 5)
    return total, elapsed


def keepalive_load(port: int, queries: list[str]) -> Tally:
    tally = Tally()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        for count in range(len(queries)):  # warm the index and the connection
            one_search(connection, queries[count], Tally())
        for count in range(KEEPALIVE_REQUESTS):
            one_search(connection, queries[count % len(queries)], tally)
    except RESET_ERRORS:
        tally.resets += 1
    finally:
        connection.close()
    return tally


def load_row(label: str, load: str, tally: Tally, elapsed_s: float) -> list[str]:
    done = len(tally.latencies_ms)
    return [
        label,
        load,
        str(done),
        f"{done / elapsed_s:.1f}" if elapsed_s else "-",
        f"{percentile(tally.latencies_ms, 0.5):.1f}",
        f"{percentile(tally.latencies_ms, 0.99):.1f}",
        str(tally.resets),
        str(tally.server_errors),
        str(tally.other_errors),
    ]


def measure_server(code: Path, label: str, examples: Path, queries: list[str], duration_s: float) -> list[list[str]]:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(code, examples, Path(folder))
        try:
            keepalive = keepalive_load(server.port, queries)
            burst, burst_s = burst_load(server.port, queries)
            concurrent, concurrent_s = concurrent_load(server.port, queries, duration_s)
        finally:
            server.stop()
    p50 = percentile(keepalive.latencies_ms, 0.5)
    took = percentile(keepalive.took_ms, 0.5)
    keepalive_row = load_row(label, "1 keep-alive conn", keepalive, 0.0)
    keepalive_row[3] = f"took_ms p50 {took:.1f}, gap {p50 - took:+.1f}"
    return [
        keepalive_row,
        load_row(label, f"{BURST} new conns x{BURST_ROUNDS}", burst, burst_s),
        load_row(label, f"{CLIENTS} clients {duration_s:g} s", concurrent, concurrent_s),
    ]


def print_table(rows: list[list[str]]) -> None:
    header = ["server", "load", "requests", "req/s", "p50 ms", "p99 ms", "resets", "5xx", "other err"]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print("| " + " | ".join(c.ljust(w) for c, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")


def run_http_bench(codes: list[Path], examples: Path, queries: list[str], *, duration_s: float) -> None:
    print(f"docshelf serve on 127.0.0.1, cache off, {len(queries)} example queries in rotation")
    rows: list[list[str]] = []
    for code in codes:
        label = str(code.resolve().parents[1].name)
        rows += measure_server(code, label, examples, queries, duration_s)
        sys.stdout.flush()
    print_table(rows)
    print("(keep-alive row: client p50 against the server's took_ms median; the gap is HTTP and client cost)")
