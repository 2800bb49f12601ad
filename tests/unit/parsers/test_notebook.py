"""Jupyter notebooks (parsers/markup/notebook.py): cells as the notebook shows them, outputs after their code."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes, parse_with_assets
from docshelf.parsers.detect import detect_format
from docshelf.tables import table_grid
from tests.support.image_fixtures import logo

DATAFRAME = (
    '<div><style scoped>.dataframe tbody tr th {vertical-align: top;}</style><table border="1" class="dataframe">'
    "<thead><tr><th></th><th>bolt</th><th>torque_nm</th></tr></thead><tbody><tr><th>0</th><td>M10</td><td>45</td></tr>"
    "<tr><th>1</th><td>M12</td><td>80</td></tr></tbody></table></div>"
)


def notebook(cells: list[dict[str, Any]], **metadata: Any) -> bytes:
    meta = {"kernelspec": {"language": "python", "name": "python3"}, **metadata}
    return json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}).encode()


def code(source: str, *outputs: dict[str, Any]) -> dict[str, Any]:
    return {"cell_type": "code", "source": source.splitlines(keepends=True), "outputs": list(outputs), "metadata": {}}


def test_cells_and_their_outputs_read_as_the_notebook_shows_them() -> None:
    chart = base64.b64encode(logo((160, 80))).decode()
    pasted = base64.b64encode(logo((90, 45), seed=2)).decode()
    cells: list[dict[str, Any]] = [
        {"cell_type": "markdown", "source": ["# Torque study\n", "\n", "We measure *bolts* of three sizes.\n"]},
        {
            "cell_type": "markdown",
            "source": "## Data\n\n![the rig](attachment:rig.png)",
            "attachments": {"rig.png": {"image/png": pasted}},
        },
        code(
            "import pandas as pd\ndf = pd.read_csv('torque.csv')\ndf",
            {
                "output_type": "execute_result",
                "execution_count": 1,
                "data": {"text/html": DATAFRAME, "text/plain": "  bolt  torque_nm\n0  M10  45"},
            },
        ),
        code(
            "print(df.torque_nm.mean())", {"output_type": "stream", "name": "stdout", "text": ["\x1b[1m62.5\x1b[0m\n"]}
        ),
        code("df.plot()", {"output_type": "display_data", "data": {"image/png": chart, "text/plain": "<Axes: >"}}),
        code(
            "df.torque_nm / 0",
            {
                "output_type": "error",
                "ename": "ZeroDivisionError",
                "evalue": "division by zero",
                "traceback": ["\x1b[0;31m---------\x1b[0m"],
            },
        ),
        {"cell_type": "raw", "source": "Raw notes."},
    ]
    document, assets = parse_with_assets(notebook(cells), "torque.ipynb")
    blocks = list(document.blocks())
    assert document.title == "Torque study"
    shown = [(block.kind, block.text if not isinstance(block, Table | Image) else "") for block in blocks]
    assert shown == [
        ("heading", "Torque study"),
        ("paragraph", "We measure bolts of three sizes."),
        ("heading", "Data"),
        ("image", ""),
        ("paragraph", "import pandas as pd\ndf = pd.read_csv('torque.csv')\ndf"),
        ("table", ""),
        ("paragraph", "print(df.torque_nm.mean())"),
        ("paragraph", "62.5"),
        ("paragraph", "df.plot()"),
        ("image", ""),
        ("paragraph", "df.torque_nm / 0"),
        ("paragraph", "ZeroDivisionError: division by zero"),
        ("paragraph", "Raw notes."),
    ]
    assert table_grid(next(b for b in blocks if isinstance(b, Table))) == [
        ["", "bolt", "torque_nm"], ["0", "M10", "45"], ["1", "M12", "80"],
    ]  # fmt: skip
    code_blocks = [b.text for b in blocks if isinstance(b, Paragraph) and b.code]
    assert code_blocks[0].startswith("import pandas") and "62.5" in code_blocks
    images = [b for b in blocks if isinstance(b, Image)]
    assert [(i.width, i.alt_text) for i in images] == [(90, "the rig"), (160, "<Axes: >")]
    assert set(assets) == {image.asset_ref for image in images}
    assert not any(isinstance(b, Heading) for b in blocks[4:])  # an output's headings are no sections


def test_an_old_notebook_and_what_is_no_notebook() -> None:
    old = {"nbformat": 3, "metadata": {"name": "Old"}, "worksheets": [{"cells": [
        {"cell_type": "heading", "level": 2, "source": "Results"},
        {"cell_type": "code", "input": "1 + 1", "outputs": [{"output_type": "pyout", "text": ["2"]}]},
    ]}]}  # fmt: skip
    blocks = list(parse_bytes(json.dumps(old).encode(), "old.ipynb").blocks())
    assert [(b.kind, getattr(b, "text", "")) for b in blocks] == [
        ("heading", "Results"), ("paragraph", "1 + 1"), ("paragraph", "2"),
    ]  # fmt: skip
    assert detect_format(notebook([]), "torque.ipynb") == "ipynb"
    with pytest.raises(CorruptDocumentError, match="no notebook"):
        parse_bytes(b'{"a": 1}', "a.ipynb")
    with pytest.raises(CorruptDocumentError, match="not a readable notebook"):
        parse_bytes(b'{"cells": [', "a.ipynb")


def test_a_notebook_dropped_in_a_folder_is_searched_and_cited_by_its_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from docshelf.local.cli import main

    cells = [
        {"cell_type": "markdown", "source": "# Torque study\n\nBolts of three sizes were tightened on the rig."},
        {"cell_type": "markdown", "source": "## Results"},
        code("df", {"output_type": "execute_result", "data": {"text/html": DATAFRAME}}),
    ]
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "torque.ipynb").write_bytes(notebook(cells))
    store = str(tmp_path / "store")
    assert main(["ingest", str(folder), "--namespace", "lab", "--store", store, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["search", "torque_nm of M12", "--namespace", "lab", "--store", store, "--json"]) == 0
    response = json.loads(capsys.readouterr().out)
    assert response["results"][0]["section_path"] == ["Torque study", "Results"]
    assert "M12" in response["evidence_text"] and "torque.ipynb" in response["evidence_text"]
    deep = ('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}").encode()
    with pytest.raises(CorruptDocumentError, match="not a readable notebook"):
        parse_bytes(deep, "deep.ipynb")
