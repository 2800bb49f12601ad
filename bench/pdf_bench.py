#!/usr/bin/env python3
"""PDF parsing speed and peak memory.

    .venv/bin/python -m bench.pdf_bench [--runs 3] [--source DIR] [FILE.pdf ...]

Each file is parsed in a fresh subprocess (so imports and earlier files do not inflate its peak RSS),
which times one parse and reports its wall and CPU seconds and peak RSS (VmHWM where Linux has it, else
`ru_maxrss`, which survives exec and would count the launching process; both include the interpreter and
imports). Long PDFs are read by forked page workers (parsers/pdf/pdf_workers.py): CPU
time includes theirs, and their peak RSS is shown apart. Every file is measured in three modes,
alternating run by run: serial (DOCSHELF_CPUS=1), default (workers only for CPUs the load average
leaves spare) and forced (a worker per usable CPU whatever the load); the last column is the serial
median wall time over this mode's. The machine is shared and noisy: wall-clock pages/s depend on the
load (printed), CPU-time pages/s much less so. `--source` points at another copy of layers/docshelf
to compare two versions of the parser.
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
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS_PDF = REPO.parent / "shared" / "corpus" / "pdf"
CPUS_ENV = "DOCSHELF_CPUS"  # docshelf.forked.CPUS_ENV
MODES = ("serial", "default", "forced")
DEFAULT_FILES = [CORPUS_PDF / "DA-619p.pdf", CORPUS_PDF / "jlshort_ja.pdf"]


def _cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the page workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _peak_kib() -> int:
    try:
        with Path("/proc/self/status").open(encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _child(path: str, runs: int, source: str, mode: str) -> None:
    sys.path.insert(0, source)
    from docshelf import forked
    from docshelf.parsers.base import ParseLimits
    from docshelf.parsers.pdf import pdf

    if mode == "forced":  # every usable CPU, whatever the load
        forked.spare_cpus = forked.usable_cpus

    data = Path(path).read_bytes()
    walls: list[float] = []
    cpus: list[float] = []
    pages = 0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), _cpu_seconds()
        pages = pdf.parse(data, filename=Path(path).name, limits=ParseLimits()).page_count
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu_seconds() - cpu)
    peak_kib = _peak_kib()
    worker_peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"pages": pages, "wall": walls, "cpu": cpus, "peak_kib": peak_kib, "worker_kib": worker_peak_kib}))


def _run_child(path: Path, source: Path, mode: str) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key != CPUS_ENV}
    if mode == "serial":
        env[CPUS_ENV] = "1"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.pdf_bench",
            "--child",
            str(path),
            "--runs",
            "1",
            "--source",
            str(source),
            "--mode",
            mode,
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def _measure(path: Path, runs: int, source: Path) -> dict[str, dict[str, float]]:
    """One row per mode for one file; each run is a fresh process, the modes alternating."""
    samples: dict[str, list[dict[str, Any]]] = {mode: [] for mode in MODES}
    for _ in range(runs):
        for mode, results in samples.items():
            results.append(_run_child(path, source, mode))
    rows: dict[str, dict[str, float]] = {}
    for mode, results in samples.items():
        pages = results[0]["pages"]
        wall = statistics.median(r["wall"][0] for r in results)
        cpu = statistics.median(r["cpu"][0] for r in results)
        rows[mode] = {
            "pages": pages,
            "wall_s": wall,
            "pages_per_s": pages / wall,
            "cpu_pages_per_s": pages / cpu,
            "peak_mb": max(r["peak_kib"] for r in results) / 1024,
            "worker_mb": max(r["worker_kib"] for r in results) / 1024,
        }
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--source", type=Path, default=REPO / "layers" / "docshelf")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=MODES, default="default", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.runs, str(args.source), args.mode)
        return
    files = args.files or DEFAULT_FILES
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs; median of {args.runs}")
    print(
        f"{'file':<24} {'mode':<9} {'pages':>6} {'wall s':>7} {'pages/s':>8} {'cpu pages/s':>12}"
        f" {'peak RSS MB':>12} {'worker MB':>10} {'speed-up':>9}"
    )
    for path in files:
        rows = _measure(path, args.runs, args.source)
        for mode, row in rows.items():
            ratio = rows["serial"]["wall_s"] / row["wall_s"]
            workers = f"{row['worker_mb']:>10.0f}" if row["worker_mb"] else f"{'-':>10}"
            print(
                f"{path.name:<24} {mode:<9} {row['pages']:>6} {row['wall_s']:>7.2f} {row['pages_per_s']:>8.0f}"
                f" {row['cpu_pages_per_s']:>12.0f} {row['peak_mb']:>12.0f} {workers} {ratio:>8.2f}x"
            )


if __name__ == "__main__":
    main()
