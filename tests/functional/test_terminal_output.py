"""What the CLI prints to a terminal from document text and names shows control characters as escapes (OSC 52
clipboard writes, hidden text, C1 controls, bidi overrides, a newline in a file name); JSON output is unchanged."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from docshelf.local.cli import main
from docshelf.local.terminal import shown_line, shown_text

HOSTILE = "Safe text \x1b]52;c;ZXZpbA==\x07 then \x1b[8mhidden\x1b[0m, \x9b31m C1 and \u202ereversed\u202c words."
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u202c")


def test_escapes() -> None:
    assert shown_line("a\nb\tc\x1b[2J\u2028d") == "a\\x0ab\\x09c\\x1b[2J\\u2028d"
    assert shown_text("a\nb\tc\x1b[2J\x85\u2066") == "a\nb\tc\\x1b[2J\\x85\\u2066"
    assert shown_line("naïve 文書 ok") == "naïve 文書 ok"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "evil.md").write_text(f"# Notes\n\n{HOSTILE}\n", encoding="utf-8")
    if sys.platform.startswith("linux"):
        (folder / "two\nlines\x1b[31m.md").write_text("# Other\n\nSafe text elsewhere.\n", encoding="utf-8")
    assert main(["ingest", str(folder), "--store", str(tmp_path / "store"), "--quiet"]) == 0
    return tmp_path / "store"


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_search_status_and_parse_escape_control_characters(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = {
        "search": printed(capsys, "search", "safe text", "--store", str(store)),
        "agentic": printed(capsys, "search", "safe text", "--agentic", "--store", str(store)),
        "status": printed(capsys, "status", "--store", str(store)),
        "parse": printed(capsys, "parse", str(tmp_path / "docs" / "evil.md")),
    }
    for command, output in outputs.items():
        assert not any(raw in output for raw in RAW), command
        assert "\\x1b]52;c;ZXZpbA==\\x07" in output or command == "status", command
    if sys.platform.startswith("linux"):
        rows = outputs["status"].splitlines()
        assert any(row.startswith("two\\x0alines\\x1b[31m.md ") for row in rows), rows
        assert len(rows) == 3  # two documents and the counts: the newline did not break the table


def test_json_output_is_unchanged(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = json.loads(printed(capsys, "search", "safe text", "--store", str(store), "--json"))
    assert any(HOSTILE in result["text"] for result in answer["results"])
