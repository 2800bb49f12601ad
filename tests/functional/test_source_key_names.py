"""Citations name a document by its source key (its path in the namespace), and every filter takes what
`docshelf status` shows: an id, a key, or a file name only one document has; anything else is exit 2 naming the
candidates. An unknown namespace is exit 2 naming those there are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.local.cli import main

MANIFEST = b"file\tformat\nreport.pdf\tpdf\n"
GROUND = b"file\treference\nreport.pdf\treport.md\n"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    (folder / "groundtruth").mkdir(parents=True)
    (folder / "MANIFEST.tsv").write_bytes(MANIFEST)
    (folder / "groundtruth" / "MANIFEST.tsv").write_bytes(GROUND)
    (folder / "notes.txt").write_text("Notes\n\nThe report lists every pdf file.\n", encoding="utf-8")
    assert main(["ingest", str(folder), "--namespace", "corpus", "--store", str(tmp_path / "store"), "--quiet"]) == 0
    return tmp_path / "store"


def run(store: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([*argv, "--namespace", "corpus", "--store", str(store)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_citations_carry_the_source_key_in_every_output(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(store, capsys, "search", "report pdf", "--top-k", "5")
    assert code == 0 and "] groundtruth/MANIFEST.tsv | " in out and "] MANIFEST.tsv | " in out
    code, out, _ = run(store, capsys, "search", "report pdf", "--json")
    response = json.loads(out)
    keys = {result["source_key"] for result in response["results"]}
    assert {"MANIFEST.tsv", "groundtruth/MANIFEST.tsv"} <= keys
    assert "] groundtruth/MANIFEST.tsv\n" in response["evidence_text"]
    assert "] MANIFEST.tsv\n" in response["evidence_text"]


def test_filters_take_the_key_status_shows(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(store, capsys, "search", "report", "--document", "groundtruth/MANIFEST.tsv", "--json")
    assert code == 0 and {r["source_key"] for r in json.loads(out)["results"]} == {"groundtruth/MANIFEST.tsv"}
    code, out, _ = run(store, capsys, "search", "report", "--exclude-document", "groundtruth/MANIFEST.tsv", "--json")
    assert code == 0 and "groundtruth/MANIFEST.tsv" not in {r["source_key"] for r in json.loads(out)["results"]}
    code, out, _ = run(store, capsys, "search", "report", "--document", "notes.txt", "--json")
    assert code == 0 and {r["source_key"] for r in json.loads(out)["results"]} == {"notes.txt"}


def test_an_ambiguous_or_unknown_document_is_exit_2_naming_the_candidates(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(store, capsys, "search", "report", "--document", "MANIFEST")
    assert code == 2 and out == ""
    assert "no document 'MANIFEST': keys holding it: MANIFEST.tsv, groundtruth/MANIFEST.tsv" in err
    code, _, err = run(store, capsys, "search", "report", "--exclude-document", "manifest.csv")
    assert code == 2 and "no document to exclude 'manifest.csv'" in err
    more = store.parent / "more"
    for side in ("x", "y"):
        (more / side).mkdir(parents=True)
        (more / side / "readme.md").write_text(f"# {side}\n\nThe {side} report.\n", encoding="utf-8")
    assert main(["ingest", str(more), "--namespace", "corpus", "--store", str(store), "--quiet"]) == 0
    code, _, err = run(store, capsys, "search", "report", "--document", "readme.md")
    assert code == 2 and "'readme.md' names 2 documents (x/readme.md, y/readme.md): give its key" in err
    code, _, err = run(store, capsys, "delete", "readme.md")
    assert code == 2 and "'readme.md' names 2 documents" in err
    code, out, _ = run(store, capsys, "search", "report", "--document", "y/readme.md", "--json")
    assert code == 0 and {r["source_key"] for r in json.loads(out)["results"]} == {"y/readme.md"}


def test_an_unknown_namespace_is_exit_2_naming_those_there_are(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["search", "report"], ["status"], ["delete", "notes.txt"], ["reembed", "--embeddings", "local"]):
        capsys.readouterr()
        assert main([*command, "--namespace", "corpsu", "--store", str(store)]) == 2
        assert "no namespace 'corpsu' (namespaces: corpus)" in capsys.readouterr().err
