#!/usr/bin/env python3
"""Structure of Japanese work rules as Japanese teams write them (tests/support/ja_documents.py), per variant: of the 19
numbered headings (第N章, 第N条, １．１), how many are found and at their level; chunks without a section path; and the
question 有給休暇は何日付与されますか asked of the rules with the other generated documents (a second rule book about
leave among them) in one embedded namespace: whether 10日 and 20日 are in the 800-token evidence, and the rank of the
付与日数 grid's chunk.

    python -m bench.ja_structure_bench

Run it on another checkout's code with `PYTHONPATH=OTHER/layers/docshelf` to compare (docs/evaluation/japanese.md).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from docshelf.chunking import chunk_document  # noqa: E402
from docshelf.index.embedded import EmbeddedIndex  # noqa: E402
from docshelf.model import Heading  # noqa: E402
from docshelf.parsers import parse_bytes  # noqa: E402
from docshelf.search.request import SearchRequest  # noqa: E402
from docshelf.search.service import search  # noqa: E402
from docshelf.store import LocalStore  # noqa: E402
from tests.support import ja_documents as ja  # noqa: E402

QUESTION = "有給休暇は何日付与されますか"
VARIANTS: dict[str, tuple[str, Callable[[], bytes]]] = {
    "DOCX, no heading styles": ("rules.docx", lambda: ja.rules_docx(styled=False)),
    "DOCX, heading styles": ("rules.docx", lambda: ja.rules_docx(styled=True)),
    "DOCX, 第%1章 / 第%2条 list numbering": ("rules.docx", ja.rules_docx_numbered),
    "text": ("rules.txt", lambda: ja.rules_text().encode("utf-8")),
    "HTML, <p> only": ("rules.html", lambda: ja.rules_html(headings=False).encode("utf-8")),
    "HTML, <h2>-<h4>": ("rules.html", lambda: ja.rules_html(headings=True).encode("utf-8")),
}


def _key(text: str) -> str:
    """A heading's number and title, whatever the digits' width and the spacing (Word's list labels differ)."""
    import unicodedata

    return "".join(unicodedata.normalize("NFKC", text).split())


def variant_row(label: str, name: str, data: bytes, others: dict[str, bytes], work: Path) -> str:
    document = parse_bytes(data, name)
    expected = {_key(text): level for text, level in ja.RULES_HEADINGS}
    found = [(_key(b.text), b.level) for b in document.blocks() if isinstance(b, Heading) and _key(b.text) in expected]
    top = min((level for _, level in found), default=1)
    at_level = sum(1 for key, level in found if level - top + 1 == expected[key])
    chunks = chunk_document(document, document_id=name, namespace="ja")
    index = EmbeddedIndex(LocalStore(work))
    index.upsert("ja", name, "r", chunks)
    for other, other_data in others.items():
        other_chunks = chunk_document(parse_bytes(other_data, other), document_id=other, namespace="ja")
        index.upsert("ja", other, "r", other_chunks)
    response = search(index, SearchRequest("ja", QUESTION, max_tokens=800))
    answered = "10日" in response.evidence_text and "20日" in response.evidence_text
    rank = next((n + 1 for n, r in enumerate(response.results) if "付与日数" in r.chunk.text), "-")
    no_path = sum(1 for chunk in chunks if not chunk.section_path)
    answer = "yes" if answered else "no"
    cells = [label, str(len(found)), str(at_level), f"{no_path} of {len(chunks)}", answer, str(rank)]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    print(
        "| variant | headings found (of 19) | at their level | chunks without a section path "
        "| 10日 and 20日 in the 800-token evidence | rank of the 付与日数 grid |\n|---|---|---|---|---|---|"
    )
    with tempfile.TemporaryDirectory(prefix="ja-structure-") as tmp:
        paths = ja.write_documents(Path(tmp) / "documents")
        others = {path.name: path.read_bytes() for path in paths if not path.name.startswith("就業規則")}
        for number, (label, (name, make)) in enumerate(VARIANTS.items()):
            print(variant_row(label, name, make(), others, Path(tmp) / f"store-{number}"), flush=True)


if __name__ == "__main__":
    main()
