#!/usr/bin/env python3
"""PDF parsing speed and peak memory.

    .venv/bin/python bench/pdf_bench.py [--runs 3] [--source DIR] [FILE.pdf ...]

Each file is parsed in a fresh subprocess (so imports and earlier files do not inflate its peak RSS),
which times `runs` parses and reports their wall and CPU seconds and its own peak RSS (`ru_maxrss` of
the child, which includes the interpreter and imports). The parent prints pages/s of the median run.
The machine is shared and noisy: wall-clock pages/s depend on the load (printed), CPU-time pages/s much
less so. `--source` points at another copy of layers/docshelf to compare two versions of the parser.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS_PDF = REPO.parent / "shared" / "corpus" / "pdf"
DEFAULT_FILES = [CORPUS_PDF / "DA-619p.pdf", CORPUS_PDF / "jlshort_ja.pdf"]


def _child(path: str, runs: int, source: str) -> None:
    sys.path.insert(0, source)
    from docshelf.parsers import pdf
    from docshelf.parsers.base import ParseLimits

    data = Path(path).read_bytes()
    walls: list[float] = []
    cpus: list[float] = []
    pages = 0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        pages = pdf.parse(data, filename=Path(path).name, limits=ParseLimits()).page_count
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"pages": pages, "wall": walls, "cpu": cpus, "peak_kib": peak_kib}))


def _measure(path: Path, runs: int, source: Path) -> dict[str, float]:
    completed = subprocess.run(
        [sys.executable, __file__, "--child", str(path), "--runs", str(runs), "--source", str(source)],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    wall, cpu = statistics.median(result["wall"]), statistics.median(result["cpu"])
    return {
        "pages": result["pages"],
        "wall_s": wall,
        "pages_per_s": result["pages"] / wall,
        "cpu_pages_per_s": result["pages"] / cpu,
        "peak_mb": result["peak_kib"] / 1024,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--source", type=Path, default=REPO / "layers" / "docshelf")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.runs, str(args.source))
        return
    files = args.files or DEFAULT_FILES
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs; median of {args.runs}")
    print(f"{'file':<28} {'pages':>6} {'wall s':>8} {'pages/s':>8} {'cpu pages/s':>12} {'peak RSS MB':>12}")
    for path in files:
        row = _measure(path, args.runs, args.source)
        print(
            f"{path.name:<28} {row['pages']:>6} {row['wall_s']:>8.2f} {row['pages_per_s']:>8.0f}"
            f" {row['cpu_pages_per_s']:>12.0f} {row['peak_mb']:>12.0f}"
        )


if __name__ == "__main__":
    main()
