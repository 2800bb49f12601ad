"""The parse and failure caches are keyed by content: the same bytes under two names, in one namespace or two,
are cited, filtered, titled and reported under each document's own name (pipeline/content_only.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.local.cli import main
from docshelf.local.services import LocalServices

NOTES = b"# Alpha notes\n\nThe quarterly revenue figures rose by twelve percent in the northern region.\n"
CSV = b"part,price\nTX-100,189\nSK-100-B,24.5\n"


def search(store: Path, namespace: str, capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, object]:
    capsys.readouterr()
    code = main(["search", "quarterly revenue", "--namespace", namespace, "--store", str(store), "--json", *options])
    assert code == 0
    answer: dict[str, object] = json.loads(capsys.readouterr().out)
    return answer


def names(answer: dict[str, object]) -> list[str]:
    results = answer["results"]
    assert isinstance(results, list)
    return [str(result["source_file_name"]) for result in results]


def test_the_same_bytes_under_two_names_in_one_namespace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "docs"
    (folder / "first").mkdir(parents=True)
    (folder / "second").mkdir()
    (folder / "first" / "alpha-notes.md").write_bytes(NOTES)
    (folder / "second" / "beta-notes.md").write_bytes(NOTES)
    store = tmp_path / "store"
    assert main(["ingest", str(folder), "--namespace", "up", "--store", str(store), "--quiet"]) == 0
    only_beta = search(store, "up", capsys, "--document", "beta-notes.md")
    assert names(only_beta) == ["beta-notes.md"]
    assert "beta-notes.md" in str(only_beta["evidence_text"]) and "alpha" not in str(only_beta["evidence_text"])
    assert names(search(store, "up", capsys, "--exclude-document", "alpha-notes.md")) == ["beta-notes.md"]
    assert names(search(store, "up", capsys, "--exclude-document", "beta-notes.md")) == ["alpha-notes.md"]


def test_the_same_bytes_in_two_namespaces_keep_their_own_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    services = LocalServices.open(store)
    services.ingest(NOTES, namespace="up", source_key="first/alpha-notes.md")
    services.ingest(NOTES, namespace="demo", source_key="beta-notes.md")
    assert names(search(store, "demo", capsys)) == ["beta-notes.md"]
    services.ingest(CSV, namespace="up", source_key="Vodafone Q1 ä.csv")
    services.ingest(CSV, namespace="demo", source_key="vodafone.csv")
    manifests = {
        record.source_key: json.loads(services.store.get(f"docs/demo/{record.document_id}/manifest.json") or b"{}")
        for record in services.registry.list("demo")
    }
    assert manifests["vodafone.csv"]["title"] == "vodafone.csv"
    assert manifests["vodafone.csv"]["source"]["filename"] == "vodafone.csv"
    assert manifests["beta-notes.md"]["source"]["uri"] == "beta-notes.md"


@pytest.mark.parametrize(
    ("data", "first", "second"),
    [
        (b"%PDF-1.4 not a pdf at all", "acme-acquisition-DRAFT.pdf", "harmless.pdf"),  # corrupt: cached
        (b"\x00\x01\x02 some bytes", "acme-acquisition-DRAFT.bin", "harmless.bin"),  # unsupported: not cached
        (b"\x00\x01\x02 some bytes", "CON", ".hidden"),
    ],
)
def test_a_failure_of_the_same_bytes_names_each_document_itself(
    data: bytes, first: str, second: str, tmp_path: Path
) -> None:
    services = LocalServices.open(tmp_path / "store")
    one = services.ingest(data, namespace="up", source_key=first)
    two = services.ingest(data, namespace="demo", source_key=second)
    assert one.status == two.status == "failed" and one.error_code == two.error_code
    assert repr(first) in one.error_message
    assert repr(second) in two.error_message and first not in two.error_message
    (record,) = services.registry.list("demo")
    assert first not in record.error_message and repr(second) in record.error_message


def test_bytes_unsupported_under_one_name_are_parsed_under_another(tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path / "store")
    text = b"Plain words about the pump seal.\n"
    assert services.ingest(text, namespace="demo", source_key="notes.bin").status == "failed"
    assert services.ingest(text, namespace="demo", source_key="notes.txt").status == "ok"
