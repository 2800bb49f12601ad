"""How long `import docshelf.client` takes in a new interpreter, against an interpreter that imports nothing, and
what `python -X importtime` charges to the package itself.

Run: `python -m bench.client_import_bench [--runs 21]`. Medians of interleaved runs (the machine is noisy).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def wall_ms(statement: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True, cwd="/")
    return (time.perf_counter() - started) * 1000


def importtime_ms(module: str) -> float:
    """The cumulative microseconds `-X importtime` reports for `module`, in ms."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"], check=True, capture_output=True, text=True
    ).stderr
    line = next(row for row in out.splitlines() if row.rstrip().endswith(f"| {module}"))
    return int(line.split("|")[1]) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    bare, stdlib, client, cumulative = [], [], [], []
    for _ in range(args.runs):
        bare.append(wall_ms("pass"))
        stdlib.append(wall_ms("import json, dataclasses, threading, urllib.parse"))
        client.append(wall_ms("import docshelf.client"))
        cumulative.append(importtime_ms("docshelf.client"))
    print(f"import docshelf.client, {args.runs} interleaved runs, medians")
    print("| measure | ms |")
    print("|---|---|")
    print(f"| python -c pass (wall) | {statistics.median(bare):.1f} |")
    print(f"| python -c 'import json, dataclasses, threading, urllib.parse' (wall) | {statistics.median(stdlib):.1f} |")
    print(f"| python -c 'import docshelf.client' (wall) | {statistics.median(client):.1f} |")
    print(
        f"| import cost (wall difference) | {statistics.median(c - b for c, b in zip(client, bare, strict=True)):.1f} |"
    )
    print(f"| -X importtime, docshelf.client cumulative | {statistics.median(cumulative):.1f} |")


if __name__ == "__main__":
    main()
