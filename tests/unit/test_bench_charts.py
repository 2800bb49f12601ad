"""The benches' SVG bar charts: valid XML, bars proportional to their values, every label and value written,
the same bytes for the same figures, and the committed charts in step with the figures they were drawn from."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import pytest

from bench import charts_from_tables, quality_charts
from bench.charts import BAR_SPAN, BarChart, Series, bar_length, render

SVG = "{http://www.w3.org/2000/svg}"


def chart(minimum: float = 0.0) -> BarChart:
    return BarChart(
        "Scores <per set> & more",
        ("MEDLINE", "CACM"),
        (Series("docshelf", (0.8, 0.4)), Series('rank-bm25 "regex"', (0.6, None))),
        minimum=minimum,
        maximum=1.0,
        note="nDCG@10",
    )


def bars(svg: str) -> dict[tuple[str, str], float]:
    root = ElementTree.fromstring(svg)
    return {
        (rect.attrib["data-series"], rect.attrib["data-group"]): float(rect.attrib["width"])
        for rect in root.iter(f"{SVG}rect")
        if rect.attrib.get("class") == "bar"
    }


def texts(svg: str) -> list[str]:
    return [element.text or "" for element in ElementTree.fromstring(svg).iter(f"{SVG}text")]


def test_the_chart_is_valid_svg_with_its_title_escaped() -> None:
    root = ElementTree.fromstring(render(chart()))
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}title").text == "Scores <per set> & more"  # type: ignore[union-attr]


def test_bar_lengths_are_proportional_to_the_values() -> None:
    drawn = bars(render(chart()))
    assert drawn[("docshelf", "MEDLINE")] == pytest.approx(0.8 * BAR_SPAN, abs=0.05)
    assert drawn[("docshelf", "MEDLINE")] / drawn[("docshelf", "CACM")] == pytest.approx(2.0, rel=1e-3)
    assert drawn[('rank-bm25 "regex"', "MEDLINE")] == pytest.approx(0.6 * BAR_SPAN, abs=0.05)


def test_an_axis_from_a_minimum_measures_bars_from_it() -> None:
    drawn = bars(render(chart(minimum=0.4)))
    assert drawn[("docshelf", "CACM")] == 0.0
    assert drawn[("docshelf", "MEDLINE")] == pytest.approx(bar_length(chart(minimum=0.4), 0.8))
    assert drawn[("docshelf", "MEDLINE")] / drawn[('rank-bm25 "regex"', "MEDLINE")] == pytest.approx(2.0, rel=1e-3)


def test_groups_values_legend_and_note_are_written_and_a_missing_value_draws_no_bar() -> None:
    svg = render(chart())
    written = texts(svg)
    for label in ("MEDLINE", "CACM", "docshelf", 'rank-bm25 "regex"', "0.800", "0.400", "0.600", "–", "nDCG@10"):
        assert label in written
    assert ('rank-bm25 "regex"', "CACM") not in bars(svg)


def test_the_same_figures_give_the_same_bytes() -> None:
    assert render(chart()) == render(chart())


@pytest.mark.parametrize(
    ("groups", "series", "message"),
    [
        ((), (Series("a", ()),), "at least one group"),
        (("x",), (Series("a", (0.5, 0.6)),), "has 2 values for 1 groups"),
        (("x", "y"), (Series("a", (-0.1, 0.5)),), "below the axis' minimum"),
    ],
)
def test_bad_figures_are_refused_with_the_reason(
    groups: tuple[str, ...], series: tuple[Series, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        BarChart("t", groups, series)


def test_the_quality_charts_take_the_rows_the_bench_writes() -> None:
    result = {
        "sets": {
            "med": {"label": "MEDLINE", "measure": "nDCG@10", "embedded": 0.7, "stemmed_bm25": 0.65},
            "xq": {
                "label": "XQuAD en",
                "measure": "MRR@10",
                "embedded": 0.97,
                "stemmed_bm25": 0.96,
                "answers": {"Qwen-Agent 0.0.34": {"MRR@10": 0.965, "Ans@500w": 0.97}},
            },
            "gone": {"label": "NPL", "skipped": "absent"},
        }
    }
    scores = quality_charts.scores_chart(result)
    assert scores.groups == ("MEDLINE (nDCG@10)", "XQuAD en (MRR@10)")
    assert [s.name for s in scores.series][-1] == "Qwen-Agent 0.0.34 (MRR@10)"
    assert scores.series[-1].values == (None, 0.965)
    answers = quality_charts.answers_chart(result)
    assert answers.groups[0] == "XQuAD en, 500 words"
    assert answers.series[-1].values[0] == 0.97


def test_the_committed_charts_match_their_figures() -> None:
    figures = json.loads((charts_from_tables.CHARTS / "figures.json").read_text(encoding="utf-8"))
    for name, svg in charts_from_tables.rendered(figures).items():
        assert (charts_from_tables.CHARTS / name).read_text(encoding="utf-8") == svg, (
            f"{name} is stale: python -m bench.charts_from_tables"
        )
