#!/usr/bin/env python3
"""Image assets: what extracting them costs a PDF parse, and that a repeated logo is stored once.

    .venv/bin/python -m bench.assets_bench [--pages 300] [--runs 3]

Two generated PDFs of the same text, one with a logo on every page and a photo on every tenth, one without
images, each parsed (`parse_with_assets`) in a fresh process per run, serially (DOCSHELF_CPUS=1) and with the
default page workers; medians of wall time and pages/s, the peak RSS of the parsing process, and the assets kept.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CPUS_ENV = "DOCSHELF_CPUS"


def _write_pdfs(folder: Path, pages: int) -> dict[str, Path]:
    import io

    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    from tests.support.image_fixtures import logo, photo

    paths = {}
    for name, with_images in (("text only", False), ("logo + photos", True)):
        buffer = io.BytesIO()
        pdf = canvas.Canvas(buffer, pagesize=(595, 842))
        for number in range(1, pages + 1):
            if with_images:
                pdf.drawImage(ImageReader(io.BytesIO(logo(seed=1))), 40, 770, width=80, height=40)
                if number % 10 == 0:
                    pdf.drawImage(
                        ImageReader(io.BytesIO(photo((480, 320), seed=number))), 40, 420, width=240, height=160
                    )
            pdf.setFont("Helvetica", 10)
            for line in range(40):
                y = 740 - line * 16 if line < 20 or not with_images or number % 10 else 390 - (line - 20) * 16
                pdf.drawString(40, max(y, 30), f"Page {number} line {line}: the pump casing and its seals.")
            pdf.showPage()
        pdf.save()
        path = folder / f"{name.replace(' ', '_').replace('+', 'and')}.pdf"
        path.write_bytes(buffer.getvalue())
        paths[name] = path
    return paths


def _child(path: str) -> None:
    from docshelf.parsers import parse_with_assets

    data = Path(path).read_bytes()
    started = time.perf_counter()
    document, assets = parse_with_assets(data, Path(path).name)
    wall = time.perf_counter() - started
    with Path("/proc/self/status").open(encoding="ascii") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    images = sum(1 for block in document.blocks() if block.kind == "image")
    print(json.dumps({"pages": len(document.pages), "wall": wall, "peak_kib": peak, "assets": len(assets),
                      "images": images, "asset_bytes": sum(map(len, assets.values()))}))  # fmt: skip


def _run(path: Path, serial: bool) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key != CPUS_ENV}
    env["PYTHONPATH"] = str(REPO / "layers" / "docshelf")
    if serial:
        env[CPUS_ENV] = "1"
    done = subprocess.run([sys.executable, "-m", "bench.assets_bench", "--child", str(path)], capture_output=True,
                          text=True, check=True, env=env)  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.pages} pages; median of {args.runs}")
    print(f"{'pdf':<15} {'mode':<8} {'wall s':>7} {'pages/s':>8} {'peak RSS MB':>12} {'images':>7} {'assets':>7}"
          f" {'asset KB':>9}")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        pdfs = _write_pdfs(Path(folder), args.pages)
        for serial in (True, False):
            samples: dict[str, list[dict[str, Any]]] = {name: [] for name in pdfs}
            for _ in range(args.runs):  # the two files alternate, so load changes hit both
                for name, path in pdfs.items():
                    samples[name].append(_run(path, serial))
            for name, runs in samples.items():
                wall = statistics.median(run["wall"] for run in runs)
                last = runs[-1]
                print(f"{name:<15} {'serial' if serial else 'default':<8} {wall:>7.2f} {last['pages'] / wall:>8.0f}"
                      f" {max(r['peak_kib'] for r in runs) / 1024:>12.0f} {last['images']:>7} {last['assets']:>7}"
                      f" {last['asset_bytes'] / 1024:>9.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
