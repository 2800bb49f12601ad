#!/usr/bin/env python3
"""A long PDF parsed whole and under a shard plan of page ranges, locally and as the Lambdas would.

    .venv/bin/python -m bench.shard_bench [--pages 600] [--range-pages 100] [--runs 3]

The PDF is generated (reportlab): numbered headings, running header and footer, two-column pages and ruled
tables. Modes, alternating run by run, medians of `--runs`: whole document read serially (DOCSHELF_CPUS=1);
whole with page workers (one per usable CPU, whatever the load); sharded locally (`--range-pages` text pages a
range, each range read by a forked worker); and the Lambda view: the plan (open, survey the pages), each range
read serially in this process as one invocation would, and the merge from the ranges' JSON. The longest range is
what bounds one invocation. Every sharded result is checked equal to the whole parse. Last, the default plan of a
generated 300-page scan.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

from docshelf import forked  # noqa: E402
from docshelf.config import ParseLimits  # noqa: E402
from docshelf.parsers import parse_bytes  # noqa: E402
from docshelf.parsers.pdf.pdf_ranges import merge_pdf_ranges, plan_pdf, read_pdf_range  # noqa: E402
from docshelf.serde import dumps, loads  # noqa: E402

WHOLE = ParseLimits(text_pages_per_range=10**6, scanned_pages_per_range=10**6)


def long_pdf(pages: int) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    width, height = A4
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for page in range(1, pages + 1):
        pdf.setFont("Helvetica", 8)
        pdf.drawString(72, height - 30, "Field Manual - Distribution Restricted")
        pdf.drawRightString(width - 72, 30, str(page))
        if page % 4 == 1:
            pdf.setFont("Helvetica-Bold", 16)
            pdf.drawString(72, height - 80, f"{page // 4 + 1} Procedure {'abcdefghij'[page % 10] * 3}{page}")
        pdf.setFont("Helvetica", 10)
        for x in (72, 320) if page % 3 == 0 else (72,):
            for line in range(40):
                pdf.drawString(x, height - 120 - 14 * line, f"Step {line} of page {page}: check the seal.")
        if page % 5 == 0:
            for row in range(4):
                pdf.line(72, 100 - 20 * row, 400, 100 - 20 * row)
                for col, x in enumerate((80, 200, 320)):
                    pdf.drawString(x, 86 - 20 * row, f"r{row}c{col}p{page}")
            for x in (72, 190, 310, 400):
                pdf.line(x, 100, x, 40)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def scan_pdf(pages: int) -> bytes:
    """`pages` pages that are each one picture and no text, as a scanner writes them."""
    from PIL import Image
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    width, height = A4
    picture = ImageReader(Image.new("L", (850, 1100), 255))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for _ in range(pages):
        pdf.drawImage(picture, 0, 0, width=width, height=height)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def print_scan_plan(pages: int) -> None:
    """The default plan of a long scan: what bounds each invocation once its pages are OCR'd."""
    data = scan_pdf(pages)
    seconds, plan = timed(lambda: plan_pdf(data, "scan.pdf", limits=ParseLimits()))
    sizes = sorted({end - start for start, end in plan.ranges})
    print(f"{pages}-page scan, default limits: {len(plan.ranges)} ranges of {sizes} pages, planned in {seconds:.2f} s")


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def read_as_json(data: bytes, span: tuple[int, int], limits: ParseLimits) -> bytes:
    return dumps(read_pdf_range(data, "long.pdf", span, limits=limits))


def lambda_view(data: bytes, limits: ParseLimits) -> tuple[dict[str, float], Any]:
    """Plan, each range alone and serially (as one invocation each), merge from JSON."""
    os.environ[forked.CPUS_ENV] = "1"
    try:
        plan_s, plan = timed(lambda: plan_pdf(data, "long.pdf", limits=limits))
        ranges = [timed(partial(read_as_json, data, span, limits)) for span in plan.ranges]
        merge_s, document = timed(lambda: merge_pdf_ranges(plan, [loads(r) for _, r in ranges], limits=limits))
    finally:
        del os.environ[forked.CPUS_ENV]
    seconds = [s for s, _ in ranges]
    return {"plan": plan_s, "longest": max(seconds), "ranges": sum(seconds), "merge": merge_s}, document


def parse_mode(data: bytes, mode: str, limits: ParseLimits) -> tuple[float, Any]:
    if mode == "serial":
        os.environ[forked.CPUS_ENV] = "1"
    try:
        return timed(lambda: parse_bytes(data, "long.pdf", limits=limits))
    finally:
        os.environ.pop(forked.CPUS_ENV, None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--range-pages", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    forked.spare_cpus = forked.usable_cpus  # workers for every usable CPU, whatever the load
    data = long_pdf(args.pages)
    sharded = ParseLimits(text_pages_per_range=args.range_pages)
    ranges = len(plan_pdf(data, "long.pdf", limits=sharded).ranges)
    reference = parse_bytes(data, "long.pdf", limits=WHOLE)
    walls: dict[str, list[float]] = {"serial": [], "page workers": [], "sharded": []}
    views: list[dict[str, float]] = []
    modes = (("serial", WHOLE), ("page workers", WHOLE), ("sharded", sharded))
    equal = True
    for _ in range(args.runs):
        for mode, limits in modes:
            seconds, document = parse_mode(data, mode, limits)
            walls[mode].append(seconds)
            equal &= document == reference
        view, document = lambda_view(data, sharded)
        views.append(view)
        equal &= document == reference
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"{args.pages}-page generated PDF, {len(data) / 1e6:.1f} MB; {forked.usable_cpus()} CPUs, load {load:.1f};")
    print(f"median of {args.runs}; sharded: {ranges} ranges of {args.range_pages} text pages; same Document: {equal}")
    serial = statistics.median(walls["serial"])
    rows = [(mode, "1" if mode != "sharded" else str(ranges), statistics.median(w)) for mode, w in walls.items()]
    print("| mode | ranges | wall s | pages/s | serial / mode |")
    print("|---|---|---|---|---|")
    for mode, count, wall in rows:
        print(f"| {mode} | {count} | {wall:.2f} | {args.pages / wall:.0f} | {serial / wall:.2f}x |")
    for name in ("plan", "longest", "ranges", "merge"):
        value = statistics.median(view[name] for view in views)
        label = {"plan": "Lambda: plan (open, survey)", "longest": "Lambda: longest range, serial",
                 "ranges": "Lambda: all ranges, serial, summed", "merge": "Lambda: merge from JSON"}[name]  # fmt: skip
        print(f"| {label} | {ranges} | {value:.2f} | | |")
    print_scan_plan(300)


if __name__ == "__main__":
    main()
