"""Image assets on one machine: ingest stores each distinct image once per document, next to its artifacts;
search links an image chunk to its file; a new revision drops the images it no longer has; delete removes them."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from docshelf.assets.links import local_asset_link
from docshelf.ids import sha256_hex
from docshelf.keys import asset_prefix, parsed_asset_prefix
from docshelf.local.services import LocalServices
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from tests.support.image_fixtures import docx_with_pictures, logo, pdf_with_logo, photo

LOGO = logo(seed=5)
PHOTO = photo(seed=5)
NAME_OF = {data: f"{hashlib.sha256(data).hexdigest()}.{ext}" for data, ext in ((LOGO, "png"), (PHOTO, "jpg"))}


def _files(root: Path, prefix: str) -> list[str]:
    folder = root.joinpath(*prefix.rstrip("/").split("/"))
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


def _all_assets(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and "assets" in str(p.parent))


@pytest.fixture
def services(tmp_path: Path) -> LocalServices:
    return LocalServices.open(tmp_path / "store")


def test_ingest_search_revise_and_delete(services: LocalServices) -> None:
    root = Path(services.store.root)
    manual = docx_with_pictures([(LOGO, "ACME logo"), (PHOTO, "Photo of the zirconium impeller")])
    for key in ("manual.docx", "copy.docx"):
        assert services.ingest(manual, namespace="demo", source_key=key).status == "ok"
    manual_id = services.registry.list("demo")[0].document_id
    records = {record.source_key: record.document_id for record in services.registry.list("demo")}
    for document_id in records.values():
        folder = asset_prefix("demo", document_id)
        assert _files(root, folder) == sorted([NAME_OF[LOGO], NAME_OF[PHOTO]])
        assert (root / folder / NAME_OF[PHOTO]).read_bytes() == PHOTO
    assert _files(root, parsed_asset_prefix(sha256_hex(manual))) == sorted([NAME_OF[LOGO], NAME_OF[PHOTO]])

    request = SearchRequest(namespace="demo", query="zirconium impeller photo", top_k=3)
    response = search(services.index, request, asset_link=local_asset_link(root))
    image = next(r.chunk for r in response.results if r.chunk.type == "image")
    link = response.assets[image.chunk_id]
    assert Path(link).read_bytes() == PHOTO
    assert f"[image: {link}]" in response.evidence_text
    assert response.to_dict()["results"][[r.chunk for r in response.results].index(image)]["asset"] == link

    revised = docx_with_pictures([(LOGO, "ACME logo")])
    assert services.ingest(revised, namespace="demo", source_key="manual.docx").status == "ok"
    assert _files(root, asset_prefix("demo", records["manual.docx"])) == [NAME_OF[LOGO]]  # the photo is dropped

    assert services.delete(namespace="demo", source_key="copy.docx")
    assert _files(root, asset_prefix("demo", records["copy.docx"])) == []
    assert _files(root, parsed_asset_prefix(sha256_hex(manual))) == []  # no live document has those bytes
    assert services.delete(namespace="demo", source_key="manual.docx")
    assert _all_assets(root) == []
    assert manual_id in records.values()


def test_a_pdf_with_its_logo_on_every_page_stores_one_asset(services: LocalServices) -> None:
    root = Path(services.store.root)
    report = pdf_with_logo(8, LOGO)
    assert services.ingest(report, namespace="demo", source_key="report.pdf").status == "ok"
    (record,) = services.registry.list("demo")
    stored = _files(root, asset_prefix("demo", record.document_id))
    assert len(stored) == 1 and re.fullmatch(r"[0-9a-f]{64}\.png", stored[0])
    assert _all_assets(root) == sorted(
        [f"docs/demo/{record.document_id}/assets/{stored[0]}", f"{parsed_asset_prefix(sha256_hex(report))}{stored[0]}"]
    )
