"""A search that finds nothing says why (search/empty.py), and a budget too small for one citation header is
refused with the minimum instead of answering a fragment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.local.cli import main


@pytest.fixture
def store(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "pump.md").write_text("# Pump\n\nThe pump seal is replaced every 2000 hours.\n", encoding="utf-8")
    more = tmp_path / "more"  # more chunks than top_k: a namespace that fits in it is returned whole
    more.mkdir()
    for number in range(10):
        (more / f"note-{number}.txt").write_text(f"Note {number}\n\nShipping crate {number} left today.\n")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 nothing")
    store = tmp_path / "store"
    assert main(["ingest", str(folder / "pump.md"), "--namespace", "demo", "--store", str(store), "--quiet"]) == 0
    assert main(["ingest", str(more), "--namespace", "demo", "--store", str(store), "--quiet"]) == 0
    assert main(["ingest", str(folder / "broken.pdf"), "--namespace", "bad", "--store", str(store), "--quiet"]) == 1
    return store


def search(store: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["search", *argv, "--store", str(store)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize(
    ("argv", "reason", "printed"),
    [
        (["what is it", "--namespace", "demo"], "only_stop_words", "only common words"),
        (["zzyzx qwertyuiop", "--namespace", "demo"], "no_match", "no chunk holds any word of the query"),
        (["pump", "--namespace", "demo", "--type", "image"], "all_filtered", "the filters allow none"),
        (["pump", "--namespace", "bad"], "empty_namespace", "the namespace holds no chunks"),
    ],
)
def test_an_empty_result_says_why(
    store: Path, capsys: pytest.CaptureFixture[str], argv: list[str], reason: str, printed: str
) -> None:
    code, out = search(store, capsys, *argv)
    assert code == 0 and out.startswith("no results: ") and printed in out
    code, out = search(store, capsys, *argv, "--json")
    answer = json.loads(out)
    assert code == 0 and answer["results"] == [] and answer["empty_reason"] == reason


def test_results_have_no_empty_reason(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = search(store, capsys, "pump seal", "--namespace", "demo", "--json")
    assert code == 0 and "empty_reason" not in json.loads(out)


@pytest.mark.parametrize("agentic", [[], ["--agentic"]])
def test_a_budget_below_one_citation_header_is_refused_with_the_minimum(
    store: Path, capsys: pytest.CaptureFixture[str], agentic: list[str]
) -> None:
    for budget in ("1", "4"):  # "[1]" alone is 3 tokens
        code, out = search(store, capsys, "pump seal", "--namespace", "demo", "--max-tokens", budget, *agentic)
        assert code == 2 and "cannot hold one citation header and its text: give at least" in out, out
    minimum = out.strip().rsplit(" ", 1)[1]
    code, out = search(store, capsys, "pump seal", "--namespace", "demo", "--max-tokens", minimum, *agentic)
    assert code == 0 and "[1] pump.md" in out
