#!/usr/bin/env python3
"""Ingest cost per document as the number of plain reports grows, beside Qwen-Agent 0.0.34 in the same run.

    nice -n 10 .venv/bin/python -m bench.scale_bench [N ...] [--no-peer] [--no-stages]

For each N (default 400 1600): N Markdown reports of about 11 KB are generated (twelve paragraphs each, drawn at
random with a fixed seed from the 51 covidqa_dev papers in ../shared/ireval, under a title and four section
headings), then ingested by docshelf into a fresh store as `docshelf ingest` does (forked parse workers on the CPUs
the load leaves, a new interpreter), and by Qwen-Agent (bench/qwen_agent_peer.py: SimpleDocParser, then DocParser
chunking at page size 500 with every document split). Printed: ms per document of each, the ratio, docshelf's CPU split
between the writer (publishing) and its forked parse workers (parsing, summaries, chunks, artifacts), and the ms per
document of each docshelf stage from a serial run with the stage timers (bench/stage_timer.py).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from bench.profile_bench import fresh_ingest, staged_ingest  # noqa: E402
from bench.qwen_agent_peer import peer_python, run_peer, skip_line  # noqa: E402
from bench.run import print_table  # noqa: E402
from bench.stage_timer import ORDER  # noqa: E402

COVIDQA = REPO.parent / "shared" / "ireval" / "covidqa_dev" / "docs"
PARAGRAPHS_PER_REPORT = 12
SECTIONS = ("Background", "Study design", "Sampling and methods", "Results", "Findings", "Discussion",
            "Limitations", "Outlook", "Recommendations", "Observations")  # fmt: skip


def paper_paragraphs(folder: Path = COVIDQA) -> list[tuple[str, str]]:
    """(paper title, paragraph) for every body paragraph of 300 to 2,500 characters of the papers."""
    found = []
    for path in sorted(folder.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        title = text.split("\n", 1)[0].lstrip("# ").strip()
        _, _, body = text.partition("\nText: ")
        found += [(title, part.strip()) for part in body.split("\n\n")
                  if 300 <= len(part.strip()) <= 2500 and not part.lstrip().startswith("#")]  # fmt: skip
    return found


def write_reports(folder: Path, count: int, paragraphs: list[tuple[str, str]], *, seed: int = 36) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        picked = rng.sample(paragraphs, PARAGRAPHS_PER_REPORT)
        headings = rng.sample(SECTIONS, 4)
        lines = [f"# Field report {number + 1}: {picked[0][0]}", ""]
        for index, (_, paragraph) in enumerate(picked):
            if index % 3 == 0:
                lines += [f"## {headings[index // 3]}", ""]
            lines += [paragraph, ""]
        path = folder / f"report-{number + 1:05d}.md"
        path.write_text("\n".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[400, 1600])
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--no-stages", action="store_true")
    args = parser.parse_args()
    if not COVIDQA.is_dir():
        print(f"scale_bench skipped: {COVIDQA} is absent")
        return
    with_peer = not args.no_peer and peer_python() is not None
    if not args.no_peer and not with_peer:
        print(skip_line())
    paragraphs = paper_paragraphs()
    rows = []
    for count in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "reports"
            files = write_reports(folder, count, paragraphs)
            size = sum(path.stat().st_size for path in files) / count / 1000
            ours = fresh_ingest(folder, files)
            per_doc = ours["seconds"] / count * 1000
            cpu_per_doc = ours["cpu"] / count * 1000
            writer_per_doc = ours["writer_cpu"] / count * 1000
            detail = (f"{ours['seconds']:.2f} s, {cpu_per_doc:.2f} CPU ms/doc (writer {writer_per_doc:.2f}, parse "
                      f"workers {cpu_per_doc - writer_per_doc:.2f}), {int(ours['chunks'])} chunks, "
                      f"{size:.1f} KB a report")  # fmt: skip
            if with_peer:
                theirs = run_peer(files)
                peer_per_doc = theirs.seconds / count * 1000
                peer_cpu = sum(theirs.per_file_cpu.values()) / count * 1000
                detail += (f"; Qwen-Agent {peer_per_doc:.2f} ms/doc, {peer_cpu:.2f} CPU ms/doc "
                           f"({theirs.seconds:.2f} s, {theirs.chunks} chunks): docshelf {peer_per_doc / per_doc:.1f}x "
                           f"faster (goal >= 3x); peer CPU / docshelf CPU {peer_cpu / cpu_per_doc:.2f}")  # fmt: skip
            rows.append((f"N={count}: docshelf ingest", f"{per_doc:.2f} ms/doc", detail))
            if not args.no_stages:
                cpu, stages, _ = staged_ingest(folder, files)
                rows.append((f"N={count}: serial, stage timers on", f"{cpu / count * 1000:.2f} CPU ms/doc",
                             ", ".join(f"{name} {stages[name] / count * 1000:.2f}" for name in ORDER)))  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    print_table(rows)


if __name__ == "__main__":
    main()
