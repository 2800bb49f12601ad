#!/usr/bin/env python3
"""OCR speed, accuracy and memory, with text-PDF speed beside it in the same run.

    .venv/bin/python bench/ocr_bench.py [--pages 12] [--runs 2]

- a scanned PDF (the tests' English, Chinese and Japanese pages at 300 dpi, clean and degraded in turn) parsed in a
  fresh subprocess per run: pages/s on one CPU (DOCSHELF_CPUS=1), on the CPUs the load average leaves spare, and
  on every CPU whatever the load (forked page workers), CPU seconds a page, and peak RSS (the parsing process, and
  the largest worker apart);
- the character error rate of each language, clean and degraded (blur, noise, 1 degree skew), read from PNG;
- text-PDF pages/s of the same parser in the same run (the corpus's DA-619p.pdf), where OCR never runs.
The machine is shared: medians, and the load average printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
TEXT_PDF = REPO.parent / "shared" / "corpus" / "pdf" / "DA-619p.pdf"


def _peak_kib() -> int:
    with Path("/proc/self/status").open(encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def _child(path: str, forced: bool) -> None:
    from docshelf import tokens
    from docshelf.parsers import pdf
    from docshelf.parsers.base import ParseLimits

    if forced:  # a worker per usable CPU whatever the load average says (the machine is shared)
        tokens.spare_cpus = tokens.usable_cpus

    data = Path(path).read_bytes()
    times = os.times()
    started = time.perf_counter()
    content = pdf.parse(data, filename=Path(path).name, limits=ParseLimits())
    wall = time.perf_counter() - started
    after = os.times()
    cpu = sum(after[:4]) - sum(times[:4])
    ocr_blocks = sum(1 for block in content.blocks if getattr(block, "ocr", False))
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"pages": content.page_count, "wall": wall, "cpu": cpu, "peak_kib": _peak_kib(),
                      "worker_kib": workers, "ocr_blocks": ocr_blocks}))  # fmt: skip


def _run(path: Path, cpus: str | None, forced: bool = False) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key != "DOCSHELF_CPUS"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "layers" / "docshelf"), str(REPO)])
    if cpus:
        env["DOCSHELF_CPUS"] = cpus
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(path), *(["--forced"] if forced else [])],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _speed_rows(label: str, path: Path, runs: int) -> list[tuple[str, str, str]]:
    rows = []
    modes = (
        ("1", False, "one CPU"),
        (None, False, "CPUs the load leaves"),
        (None, True, f"{os.cpu_count()} CPUs forced"),
    )
    for cpus, forced, mode in modes:
        results = [_run(path, cpus, forced) for _ in range(runs)]
        pages = results[0]["pages"]
        wall = statistics.median(result["wall"] for result in results)
        cpu = statistics.median(result["cpu"] for result in results)
        peak = max(result["peak_kib"] for result in results) / 1024
        workers = max(result["worker_kib"] for result in results) / 1024
        rows.append((
            f"{label}, {pages} pages, {mode}", f"{pages / wall:.2f} pages/s",
            f"{cpu / pages * 1000:.1f} CPU ms/page, peak RSS {peak:.0f} MB (largest worker {workers:.0f} MB), "
            f"load {os.getloadavg()[0]:.1f}",
        ))  # fmt: skip
    return rows


def _accuracy_rows() -> list[tuple[str, str, str]]:
    from docshelf.parsers import block_text, parse_bytes
    from tests.scans import PARAGRAPHS, character_error_rate, degrade, encode, render_page

    rows = []
    for language, paragraphs in PARAGRAPHS.items():
        page = render_page(paragraphs, language)
        rates = []
        for image in (page, degrade(page)):
            document = parse_bytes(encode([image], "png"), "scan.png")
            text = "\n".join(block_text(block) for block in document.blocks())
            rates.append(character_error_rate("\n".join(paragraphs), text))
        rows.append((f"OCR CER {language} (clean / degraded)", f"{rates[0]:.2%} / {rates[1]:.2%}",
                     "goal <= 2% / <= 5%; NFKC, spaces between Han/kana ignored"))  # fmt: skip
    return rows


def _scanned_pdf(pages: int, folder: Path) -> Path:
    from tests.scans import PARAGRAPHS, degrade, encode, render_page

    languages = list(PARAGRAPHS)
    images = []
    for index in range(pages):
        language = languages[index % len(languages)]
        page = render_page(PARAGRAPHS[language], language)
        images.append(degrade(page, seed=index) if index % 2 else page)
    path = folder / "scan.pdf"
    path.write_bytes(encode(images, "pdf"))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=12)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--forced", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.forced)
        return
    from docshelf.ocr.settings import ocr_settings, unavailable_reason

    reason = unavailable_reason(ocr_settings())
    if reason:
        print(f"ocr_bench skipped: {reason} (run `make setup`)")
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows += _speed_rows(
            "scanned PDF (eng/chi_sim/jpn, clean and degraded)", _scanned_pdf(args.pages, Path(tmp)), args.runs
        )
    if TEXT_PDF.is_file():
        rows += _speed_rows(f"text PDF {TEXT_PDF.name}", TEXT_PDF, args.runs)
    rows += _accuracy_rows()
    from bench.run import print_table

    print_table(rows)


if __name__ == "__main__":
    main()
