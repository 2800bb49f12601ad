"""A file over the size limit is refused from what the file system says, before a byte of it is read, and any
failure while one file is read or parsed (MemoryError included) ends that file's status, never the batch."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from docshelf import parsers
from docshelf.errors import DocumentTooLargeError
from docshelf.local.cli import main
from docshelf.local.services import LocalServices
from docshelf.local.sources import list_sources
from docshelf.parsers.base import ParsedContent, ParseLimits, Parser
from docshelf.pipeline.file_reading import hash_source, read_source

REPO = Path(__file__).resolve().parents[2]
ADDRESS_SPACE_LIMIT = 1_500_000 * 1024  # `ulimit -v 1500000`
GIB = 1024**3


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as file:
        file.truncate(size)
    return path


def test_reading_and_hashing_refuse_an_oversized_file_from_its_size(tmp_path: Path) -> None:
    huge = sparse(tmp_path / "huge.txt", 3 * GIB)
    with pytest.raises(DocumentTooLargeError, match=f"{3 * GIB} bytes is over the limit of 1000"):
        read_source(huge, 1000)
    with pytest.raises(DocumentTooLargeError, match="over the limit"):
        hash_source(huge, 1000)
    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 1000)
    assert read_source(small, 1000) == b"x" * 1000
    assert hash_source(small, 1000) == hash_source(small)


def _limited_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux counts it")
def test_a_3_gb_file_beside_two_small_ones_under_a_1_5_gb_address_space_limit(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    sparse(folder / "huge.txt", 3 * GIB)
    (folder / "pumps.txt").write_text("Pumps\n\nThe pump runs at 3000 rpm.\n", encoding="utf-8")
    (folder / "seals.md").write_text("# Seals\n\nReplace the seal yearly.\n", encoding="utf-8")
    store = tmp_path / "store"
    done = subprocess.run(
        [sys.executable, "-m", "docshelf.local.cli", "ingest", str(folder), "--store", str(store), "--quiet"],
        capture_output=True, text=True, preexec_fn=_limited_address_space, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "2 ok, 1 failed" in done.stdout
    assert f"huge.txt: failed [too_large] {3 * GIB} bytes is over the limit" in done.stdout
    statuses = {r.source_key: r.status for r in LocalServices.open(store).registry.list("default")}
    assert statuses == {"huge.txt": "failed", "pumps.txt": "ok", "seals.md": "ok"}


def test_running_out_of_memory_in_a_parser_ends_that_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "pumps.txt").write_text("Pumps\n\nThe pump runs at 3000 rpm.\n", encoding="utf-8")
    (folder / "table.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    real = parsers.load_parser

    def exhausting(fmt: str) -> Parser:
        if fmt != "csv":
            return real(fmt)

        def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
            raise MemoryError

        return parse

    monkeypatch.setattr(parsers, "load_parser", exhausting)
    services = LocalServices.open(tmp_path / "store")
    files = [(source.path, source.key) for source in list_sources([folder]).files]
    results = {result.source_key: result for result in services.ingest_files(files, namespace="acme")}
    assert results["pumps.txt"].status == "ok"
    assert (results["table.csv"].status, results["table.csv"].error_code) == ("failed", "too_large")
    assert "ran out of memory" in results["table.csv"].error_message


def test_an_exception_outside_the_parsers_ends_that_file_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from docshelf.pipeline import parse as parse_module

    real = parsers.parse_with_assets

    def failing(data: bytes, filename: str, **options: object) -> object:
        if filename == "odd.txt":
            raise RecursionError("maximum recursion depth exceeded")
        return real(data, filename, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(parse_module, "parse_with_assets", failing)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "odd.txt").write_text("Odd\n\nodd text\n", encoding="utf-8")
    (folder / "even.txt").write_text("Even\n\neven text\n", encoding="utf-8")
    services = LocalServices.open(tmp_path / "store")
    files = [(source.path, source.key) for source in list_sources([folder]).files]
    results = {result.source_key: result for result in services.ingest_files(files, namespace="acme")}
    assert results["even.txt"].status == "ok"
    assert (results["odd.txt"].status, results["odd.txt"].error_code) == ("failed", "parser_error")
    assert "RecursionError" in results["odd.txt"].error_message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_arguments_that_are_not_files_say_what_they_are(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    expected = {
        "loop-a": "a symlink loop",
        "pipe": "a FIFO, not a file or folder",
        "dangling": "a symlink whose target does not exist",
        "missing": "no such file or folder",
    }
    for name, reason in expected.items():
        assert main(["ingest", str(tmp_path / name), "--store", str(tmp_path / "store"), "--quiet"]) == 2
        assert f"{name}: {reason}" in capsys.readouterr().err
