"""Render the committed charts of docs/evaluation/charts/ from the figures transcribed from the docs.

The benches draw the same charts from a fresh run (`bench/quality_bench.py --chart`, `--answers-chart`;
`bench/evidence_study.py --chart`); this draws them from docs/evaluation/charts/figures.json, whose rows have the
shape those benches write with `--json`, so the charts are reproducible without hours of benches.

    python -m bench.charts_from_tables [--figures FILE] [--out DIR] [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench import charts, quality_charts

REPO = Path(__file__).resolve().parents[1]
CHARTS = REPO / "docs" / "evaluation" / "charts"


def rendered(figures: dict[str, object]) -> dict[str, str]:
    """Each chart's file name and SVG text."""
    quality = figures["quality_bench"]["result"]  # type: ignore[index]
    study = figures["evidence_study"]["report"]  # type: ignore[index]
    return {
        "quality-scores.svg": charts.render(quality_charts.scores_chart(quality)),
        "quality-answers.svg": charts.render(quality_charts.answers_chart(quality)),
        "evidence-packing.svg": charts.render(quality_charts.evidence_study_chart(study)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--figures", type=Path, default=CHARTS / "figures.json")
    parser.add_argument("--out", type=Path, default=CHARTS)
    parser.add_argument("--check", action="store_true", help="fail if a committed chart differs from its figures")
    arguments = parser.parse_args(argv)
    figures = json.loads(arguments.figures.read_text(encoding="utf-8"))
    stale = []
    for name, svg in rendered(figures).items():
        target = arguments.out / name
        if arguments.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != svg:
                stale.append(name)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(svg, encoding="utf-8")
        print(target)
    if stale:
        print(f"charts out of date with {arguments.figures}: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
