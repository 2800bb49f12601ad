"""A Word document whose headings are typed bold or large, as many are: its search results and evidence cite the
section the answer is in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import docx
from docx.shared import Pt

from docshelf.local.cli import main

if TYPE_CHECKING:
    import pytest

SECTIONS = {
    "Seal replacement": "Replace the shaft seal of the TX-100 pump every 2,000 operating hours, or sooner if it drips.",
    "Bearing lubrication": "Grease the bearings of the TX-100 pump with lithium grease every 500 operating hours.",
    "Electrical safety": "Isolate the motor at the main switch and lock it out before any work on the pump.",
}


def _hand_formatted_manual(path: Path) -> None:
    document = docx.Document()
    title = document.add_paragraph().add_run("TX-100 Service Manual")
    title.bold, title.font.size = True, Pt(20)
    for heading, text in SECTIONS.items():
        document.add_paragraph().add_run(heading).bold = True
        document.add_paragraph(text)
        for step in range(1, 25):  # sections long enough to be chunks of their own
            document.add_paragraph(f"Step {step}: check the work area, note the reading of gauge {step} in the log.")
    document.save(str(path))


def test_results_and_evidence_cite_the_section_a_bold_heading_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _hand_formatted_manual(folder / "manual.docx")
    store = str(tmp_path / "store")
    assert main(["ingest", str(folder), "--namespace", "plant", "--store", store, "--quiet"]) == 0
    capsys.readouterr()
    question = "how often are the bearings greased"
    assert main(["search", question, "--namespace", "plant", "--store", store, "--json", "--max-tokens", "300"]) == 0
    response = json.loads(capsys.readouterr().out)
    first = response["results"][0]
    assert first["section_path"][-1] == "Bearing lubrication"
    assert "lithium grease" in response["evidence_text"]
    assert "Bearing lubrication" in response["evidence_text"]  # the citation header names the section
