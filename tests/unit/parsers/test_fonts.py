"""Faces known by their names, as PDF and RTF name them."""

from __future__ import annotations

import pytest

from docshelf.parsers.fonts import monospaced


@pytest.mark.parametrize(
    "name",
    ["Courier New", "CourierNewPSMT", "Consolas", "DejaVuSansMono-Bold", "LiberationMono", "Lucida Console",
     "LucidaConsole", "CMTT10", "LMMono10-Regular", "Source Code Pro", "SourceCodePro-Regular", "Menlo"],
)  # fmt: skip
def test_monospaced_faces_are_known_by_name(name: str) -> None:
    assert monospaced(name)


@pytest.mark.parametrize("name", ["Monotype Corsiva", "MonotypeCorsiva", "Times New Roman", "Helvetica", "Calibri"])
def test_proportional_faces_are_not_monospaced(name: str) -> None:
    assert not monospaced(name)
