"""Usage and input errors of the CLI are one line on stderr and exit 2; `delete` forgets a document's text, and
refuses a name that is not unique; ingest reports progress in logs and counts every status."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.local.cli import main
from docshelf.local.cli_ingest import print_summary
from docshelf.local.progress import INTERVAL_ENV, ProgressLines
from docshelf.local.services import LocalServices
from docshelf.pipeline import IngestResult

REPO = Path(__file__).resolve().parents[2]
PHRASE = b"The zirconium impeller of the TX-900 pump is inspected every 250 hours."


@pytest.fixture
def store(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    from docshelf.index.embedded import EmbeddedIndex

    monkeypatch.setattr(EmbeddedIndex, "SNAPSHOT_AFTER_CHUNKS", 1)  # a namespace snapshot holds the terms too
    docs = tmp_path / "docs"
    (docs / "a").mkdir(parents=True)
    (docs / "b").mkdir()
    (docs / "a" / "readme.txt").write_bytes(b"Pumps\n\n" + PHRASE + b"\n")
    (docs / "b" / "readme.txt").write_bytes(b"Valves\n\nGate valves are sized by the nominal pipe diameter.\n")
    (docs / "copy.txt").write_bytes(b"Pumps\n\n" + PHRASE + b"\n")  # the same bytes as a/readme.txt
    (docs / "empty.txt").write_bytes(b"")
    folder = tmp_path / "store"
    assert main(["ingest", str(docs), "--store", str(folder), "--quiet"]) == 1  # empty.txt failed
    capsys.readouterr()
    return folder


def store_files_holding(store: Path, phrase: bytes) -> list[str]:
    return sorted(str(p.relative_to(store)) for p in store.rglob("*") if p.is_file() and phrase in p.read_bytes())


def cached(store: Path) -> list[str]:
    return sorted(str(p.relative_to(store)) for p in (store / "cache").rglob("*") if p.is_file())


# -- usage and input errors ----------------------------------------------------------------------------------------


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing printed before the error
    assert len(captured.err.strip().splitlines()) == 1 and "Traceback" not in captured.err
    return captured.err


def test_parse_and_chunk_need_one_existing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("parse", "chunk"):
        assert "no such file" in usage_error(capsys, command, str(tmp_path / "missing.pdf"))
        assert "is a folder" in usage_error(capsys, command, str(tmp_path))


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (b'{"qid": "1", "query": "seal"}\nnot json\n', "queries.jsonl:2: not JSON"),
        (b'{"qid": "1", "query": "seal"}\n["a list"]\n', "queries.jsonl:2: expected an object"),
        (b'{"query": "seal"}\n', '"qid" must be'),
        (b'{"qid": "1", "query": "  "}\n', '"query" must be a non-empty string'),
        (b'{"qid": "1", "query": "caf\xe9"}\n', "not UTF-8"),
    ],
)
def test_a_bad_queries_file_prints_nothing_but_the_error(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: bytes, reason: str
) -> None:
    queries = tmp_path / "queries.jsonl"
    queries.write_bytes(lines)
    assert reason in usage_error(capsys, "search", "--queries", str(queries), "--store", str(store))


def test_a_missing_queries_file_is_a_usage_error(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "no such file" in usage_error(
        capsys, "search", "--queries", str(tmp_path / "nope.jsonl"), "--store", str(store)
    )


def test_read_commands_never_create_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "typo" / "dir"
    for argv in (["search", "pumps"], ["status"], ["delete", "a.txt"]):
        assert "no docshelf store" in usage_error(capsys, *argv, "--store", str(typo))
    assert not (tmp_path / "typo").exists()


def test_usage_errors_have_no_traceback_in_a_fresh_process(tmp_path: Path) -> None:
    for argv in (["parse", str(tmp_path)], ["search", "x", "--store", str(tmp_path / "none")]):
        result = subprocess.run(
            [sys.executable, "-m", "docshelf.local.cli", *argv], capture_output=True, text=True, check=False, cwd=REPO
        )
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.startswith(f"docshelf {argv[0]}: ") and len(result.stderr.splitlines()) == 1


# -- delete --------------------------------------------------------------------------------------------------------


def test_delete_forgets_the_text_unless_another_document_shares_the_bytes(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert any(key.startswith("cache/chunks/") for key in cached(store))
    assert "index/default.snapshot" in store_files_holding(store, b"zirconium")
    assert main(["delete", "a/readme.txt", "--store", str(store)]) == 0
    # copy.txt has the same bytes: their parse cache stays, a/readme.txt's chunk caches go
    assert [f for f in store_files_holding(store, PHRASE) if f.startswith("cache/") and "chunks" not in f]
    services = LocalServices.open(store)
    copy = next(r for r in services.registry.list("default") if r.source_key == "copy.txt")
    assert any(copy.document_id in f for f in store_files_holding(store, PHRASE))

    assert main(["delete", "copy.txt", "--store", str(store)]) == 0
    capsys.readouterr()
    assert store_files_holding(store, PHRASE) == []  # no cache, artifact or index object keeps the text
    assert store_files_holding(store, b"zirconium") == []  # nor the namespace snapshot its terms
    assert main(["search", "zirconium impeller", "--store", str(store), "--json"]) == 0
    assert "zirconium" not in capsys.readouterr().out.lower()


def test_delete_removes_a_failed_documents_failure_marker(store: Path) -> None:
    markers = [key for key in cached(store) if key.endswith("_failed.json")]
    assert len(markers) == 1  # empty.txt's
    assert main(["delete", "empty.txt", "--store", str(store)]) == 0
    assert [key for key in cached(store) if key.endswith("_failed.json")] == []


def test_an_ambiguous_or_unknown_name_deletes_nothing(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    error = usage_error(capsys, "delete", "copy.txt", "readme.txt", "--store", str(store))
    assert "a/readme.txt" in error and "b/readme.txt" in error
    assert "no document" in usage_error(capsys, "delete", "copy.txt", "nothing.txt", "--store", str(store))
    statuses = {r.source_key: r.status for r in LocalServices.open(store).registry.list("default")}
    assert statuses["copy.txt"] == statuses["a/readme.txt"] == "ok"
    assert main(["delete", "b/readme.txt", "--store", str(store)]) == 0
    assert main(["delete", "readme.txt", "--store", str(store)]) == 0  # unique now
    assert "deleted a/readme.txt" in capsys.readouterr().out


# -- progress and summary -----------------------------------------------------------------------------------------


def test_ingest_prints_progress_lines_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for number in range(3):
        (docs / f"note{number}.txt").write_text(f"Note {number}\n\nShipping takes {number} days.\n")

    def ingest(*extra: str) -> subprocess.CompletedProcess[str]:
        command = [
            sys.executable,
            "-m",
            "docshelf.local.cli",
            "ingest",
            str(docs),
            "--store",
            str(tmp_path / "s"),
            *extra,
        ]
        environment = {**os.environ, INTERVAL_ENV: "0.05"}
        return subprocess.run(command, capture_output=True, text=True, check=False, cwd=REPO, env=environment)

    result = ingest()
    assert result.returncode == 0, result.stderr
    assert "docshelf ingest: 3/3 files parsed (100%), 3 published: 3 ok, 0 failed, done" in result.stderr
    assert ingest("--quiet").stderr == ""


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "log.txt"


def test_progress_lines_keep_coming_while_no_file_completes(log_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv(INTERVAL_ENV, "0.02")
    with log_file.open("w") as out:
        progress = ProgressLines(3, out)
        progress.parsed()
        progress.parsed()  # two files parsed, waiting for their batch to be published
        progress.update("ok")
        time.sleep(0.5)  # one large file parsing
        progress.close()
    lines = log_file.read_text().splitlines()
    state = "docshelf ingest: 2/3 files parsed (66%), 1 published: 1 ok"
    heartbeats = [line for line in lines[:-1] if line.startswith(state)]
    assert len(heartbeats) >= 2, lines  # the first line may come before the ticker read the update
    assert lines[-1].startswith(f"{state}, 0 failed, done")


def test_the_summary_counts_each_status_apart(capsys: pytest.CaptureFixture[str]) -> None:
    results = [
        IngestResult("ns", f"d{n}", f"{s}{n}.pdf", s) for n, s in enumerate(["ok", "ok", "partial", "needs_ocr"])
    ]
    results.append(IngestResult("ns", "d9", "bad.pdf", "failed", error_code="corrupt", error_message="no xref"))
    print_summary(results, 1.0, namespace="ns", store=Path("s"))
    out = capsys.readouterr().out
    assert out.startswith("2 ok, 1 partial, 1 needs_ocr, 1 failed, 0 chunks")
    assert "  bad.pdf: failed [corrupt] no xref" in out and "partial2.pdf: partial" in out


def test_files_are_counted_as_parsed_before_their_batch_is_published(tmp_path: Path) -> None:
    from docshelf.local.services import LocalServices

    docs = tmp_path / "docs"
    docs.mkdir()
    for number in range(5):
        (docs / f"note{number}.txt").write_text(f"Note {number}\n\nShipping takes {number} days.\n")
    services = LocalServices.open(tmp_path / "store")
    parsed: list[int] = []
    files = sorted((path, path.name) for path in docs.iterdir())
    seen_at_first_result = None
    for _result in services.ingest_files(files, namespace="ns", on_parsed=lambda: parsed.append(1)):
        seen_at_first_result = len(parsed) if seen_at_first_result is None else seen_at_first_result
    assert seen_at_first_result == 5 and len(parsed) == 5  # one batch: every file parsed before any is published
