#!/usr/bin/env python3
"""OCR speed, accuracy and memory, with text-PDF speed beside it in the same run.

    .venv/bin/python -m bench.ocr_bench [--pages 12] [--runs 2]

- a scanned PDF (the tests' English, Chinese and Japanese pages at 300 dpi, clean and degraded in turn) parsed in a
  fresh subprocess per run: pages/s on one CPU (DOCSHELF_CPUS=1), on the CPUs the load average leaves spare, and
  on every CPU whatever the load (forked page workers), CPU seconds a page, and peak RSS (the parsing process, and
  the largest worker apart);
- the character error rate of Chinese and Japanese pages (a title at 24 pt, then body text with identifiers and digit
  runs) in three faces each (a Ming/Mincho, a Hei/Gothic, Droid Sans Fallback) at 10, 12 and 14 pt, clean and
  degraded (blur, noise, 1 degree skew), read from PNG through the whole parser; whether ＴＸ－１００, ＴＸ－２００ and
  3305 come back whole; English beside them (`--accuracy-only` runs only this part);
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
TEXT_PDF = REPO.parent / "shared" / "corpus" / "pdf" / "DA-619p.pdf"


def _peak_kib() -> int:
    with Path("/proc/self/status").open(encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def _child(path: str, forced: bool) -> None:
    from docshelf import forked
    from docshelf.parsers.base import ParseLimits
    from docshelf.parsers.pdf import pdf

    if forced:  # a worker per usable CPU whatever the load average says (the machine is shared)
        forked.spare_cpus = forked.usable_cpus

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
        [sys.executable, "-m", "bench.ocr_bench", "--child", str(path), *(["--forced"] if forced else [])],
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


# Pages of each script with a title, identifiers and digit runs as Japanese and Chinese teams print them.
CJK_PAGES = {
    "jpn": ("灯台点検報告書", [
        "四半期保守報告書は北部工場のポンプ、バルブ、シールを対象としています。サービス契約の売上は十二パーセント増加"
        "し、すべての地域で運営費は安定していました。",
        "対象機種はＴＸ－１００とＴＸ－２００です。問い合わせは保守課（内線 3305）まで。点検は２０２４年４月１日に"
        "実施しました。",
        "欧州とアジアの顧客は新しい監視プラットフォームをすぐに採用し、サポートチームは二営業日以内にほとんどの問題を解決し"
        "ました。",
        "来年、チームはすべてのボイラー給水ポンプを二回点検し、結果を公開する予定です。",
    ]),
    "chi_sim": ("灯塔检查报告", [
        "本季度维护报告涵盖北方工厂的水泵、阀门和密封件。服务合同收入增长了百分之十二，而各地区的运营成本保持稳定。",
        "检查的型号为ＴＸ－１００和ＴＸ－２００。如有问题请联系维修部（分机 3305）。检查于2024年4月1日进行，走廊和雾灯"
        "均已更换。",
        "欧洲和亚洲的客户迅速采用了新的监控平台，支持团队在两个工作日内解决了大多数问题。三月份更换了三个阀杆密封，共计一千"
        "二百元。",
        "明年团队计划对每台锅炉给水泵检查两次，并在网上公布结果。",
    ]),
}  # fmt: skip
IDENTIFIERS = ("TX-100", "TX-200", "3305")
SIZES = (10, 12, 14)


def _accuracy_rows() -> list[tuple[str, str, str]]:
    """CER of each script after NFKC (spaces next to Han and kana ignored), clean and degraded, over its fonts at
    12 and 14 pt (the goal's sizes) and at 10 pt apart; the identifiers found whole; English from
    tests/support/scans."""
    from docshelf.errors import DocumentError
    from docshelf.parsers import parse_bytes
    from docshelf.tables import block_text
    from tests.support.scans import (
        PARAGRAPHS,
        SCRIPT_FONTS,
        character_error_rate,
        degrade,
        encode,
        normalise,
        render_page,
    )

    def read(image: object) -> str:
        try:
            document = parse_bytes(encode([image], "png"), "scan.png")  # type: ignore[list-item]
        except DocumentError:  # nothing read: every character is an error
            return ""
        return "\n".join(block_text(block) for block in document.blocks())

    rows = []
    for language, (title, paragraphs) in CJK_PAGES.items():
        reference = "\n".join([title, *paragraphs])
        rates: dict[tuple[str, int, bool], float] = {}
        intact = total = 0
        for font, path in SCRIPT_FONTS[language].items():
            if not path.is_file():
                rows.append((f"OCR {language} {font}", "skipped", f"{path.name} missing (run `make setup`)"))
                continue
            for points in SIZES:
                page = render_page(paragraphs, language, points=points, title=title, font_file=path)
                for degraded in (False, True):
                    text = read(degrade(page) if degraded else page)
                    rates[(font, points, degraded)] = character_error_rate(reference, text)
                    found = normalise(text).replace(" ", "")
                    intact += sum(identifier in found for identifier in IDENTIFIERS)
                    total += len(IDENTIFIERS)
        fonts = sorted({font for font, _, _ in rates})
        for label, sizes in (("12-14 pt", (12, 14)), ("10 pt", (10,))):
            clean = [rates[(f, p, False)] for f in fonts for p in sizes]
            worn = [rates[(f, p, True)] for f in fonts for p in sizes]
            if clean:
                per_font = "; ".join(
                    f"{f} {statistics.mean(rates[(f, p, False)] for p in sizes):.1%} / "
                    f"{statistics.mean(rates[(f, p, True)] for p in sizes):.1%}"
                    for f in fonts
                )
                goal = {"jpn": "goal <= 1.5% / <= 3%", "chi_sim": "goal <= 2% / <= 4%"}[language]
                rows.append((f"OCR CER {language} {label} (clean / degraded)",
                             f"{statistics.mean(clean):.2%} / {statistics.mean(worn):.2%}",
                             f"{goal if label != '10 pt' else 'no goal'}; {per_font}"))  # fmt: skip
        rows.append((f"OCR identifiers {language} ({', '.join(IDENTIFIERS)})", f"{intact}/{total} whole",
                     "over every font, size, clean and degraded"))  # fmt: skip
    for language, paragraphs in PARAGRAPHS.items():
        if language != "eng":
            continue
        page = render_page(paragraphs, language)
        english = [character_error_rate("\n".join(paragraphs), read(image)) for image in (page, degrade(page))]
        rows.append(("OCR CER eng 12 pt (clean / degraded)", f"{english[0]:.2%} / {english[1]:.2%}", "Vera"))
    return rows


def _scanned_pdf(pages: int, folder: Path) -> Path:
    from tests.support.scans import PARAGRAPHS, degrade, encode, render_page

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
    parser.add_argument("--accuracy-only", action="store_true")
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
    if args.accuracy_only:
        from bench.run import print_table

        print_table(_accuracy_rows())
        return
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
