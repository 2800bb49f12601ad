"""`docshelf ingest --prune FOLDER` deletes the documents earlier ingests of that folder listed whose files are gone,
and nothing else of the namespace."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docshelf.local.cli import main
from docshelf.local.services import LocalServices

if TYPE_CHECKING:
    import pytest


def live(store: Path) -> set[str]:
    return {r.source_key for r in LocalServices.open(store).registry.list("default") if r.status != "deleted"}


def ingest(store: Path, *argv: str) -> int:
    return main(["ingest", *argv, "--store", str(store), "--quiet"])


def test_prune_removes_the_folder_s_documents_whose_files_are_gone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, other, store = tmp_path / "docs", tmp_path / "other", tmp_path / "store"
    (folder / "sub").mkdir(parents=True)
    other.mkdir()
    for path in (folder / "a.txt", folder / "c.txt", folder / "sub" / "b.txt", other / "z.txt"):
        path.write_text(f"Notes\n\nAbout {path.stem}.\n", encoding="utf-8")
    solo = tmp_path / "solo.txt"
    solo.write_text("Solo\n\nA file given alone.\n", encoding="utf-8")
    assert ingest(store, str(folder)) == ingest(store, str(other)) == ingest(store, str(solo)) == 0
    (folder / "c.txt").unlink()
    (folder / "sub" / "b.txt").unlink()
    assert ingest(store, str(folder)) == 0  # without --prune nothing is deleted, and c.txt is still remembered
    assert live(store) == {"a.txt", "c.txt", "sub/b.txt", "z.txt", "solo.txt"}
    capsys.readouterr()
    assert ingest(store, str(folder), "--prune") == 0
    out = capsys.readouterr().out
    assert "c.txt: deleted (its file is gone; --prune)" in out and "sub/b.txt: deleted" in out
    assert live(store) == {"a.txt", "z.txt", "solo.txt"}  # the other folder's and the lone file's stay


def test_prune_of_a_folder_never_recorded_deletes_nothing_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, store = tmp_path / "docs", tmp_path / "store"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nText.\n", encoding="utf-8")
    LocalServices.open(store).ingest(b"Old\n\nAn older document.\n", namespace="default", source_key="old.txt")
    capsys.readouterr()
    assert ingest(store, str(folder), "--prune") == 0
    assert "no earlier ingest of it is recorded, so nothing is pruned" in capsys.readouterr().err
    assert live(store) == {"a.txt", "old.txt"}
