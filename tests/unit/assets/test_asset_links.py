"""An image chunk's asset survives both indexes' storage and is linked in the evidence within its budget."""

from __future__ import annotations

from docshelf.assets.links import image_asset, local_asset_link
from docshelf.index.opensearch.queries import chunk_from_source, chunk_source
from docshelf.model import Chunk, Link
from docshelf.search.packing import image_line, pack_evidence
from docshelf.serde import chunk_from_dict, chunk_to_dict
from docshelf.tokens import count_tokens

ASSET = "c" * 64 + ".png"
IMAGE = Chunk(
    chunk_id="c1", document_id="d1", namespace="ns", type="image", text="Wiring diagram. The panel.",
    section_path=("Wiring",), pages=(2,), token_count=7, ordinal=1, source_file_name="m.pdf",
    revision="rev", connect_to=(Link("image", "describes", ASSET, 0),),
)  # fmt: skip
TEXT = Chunk(
    chunk_id="c0", document_id="d1", namespace="ns", type="text", text="The panel is shown.",
    section_path=("Wiring",), pages=(2,), token_count=5, ordinal=0, source_file_name="m.pdf",
    connect_to=(Link("image", "embeds", ASSET, 4),),
)  # fmt: skip


def test_the_asset_survives_the_embedded_and_opensearch_documents() -> None:
    stored = chunk_from_source(chunk_source(IMAGE, "rev", {"content": [], "path": [], "term": []}))
    assert stored == IMAGE
    assert chunk_from_dict(chunk_to_dict(IMAGE)) == IMAGE
    assert image_asset(stored) == ASSET
    assert image_asset(TEXT) is None  # a text chunk embeds the image; the image chunk is what is linked


def test_evidence_links_image_chunks_and_counts_the_line() -> None:
    link = local_asset_link("/srv/store")(IMAGE, ASSET)
    assert link == f"/srv/store/docs/ns/d1/assets/{ASSET}"
    full = pack_evidence([TEXT, IMAGE], {}, 1000, assets={"c1": link})
    assert len(full.blocks) == 2
    assert full.text.endswith(IMAGE.text + image_line(link))
    assert count_tokens(full.text) <= full.tokens <= 1000
    for budget in range(full.tokens - 30, full.tokens + 3):
        text = pack_evidence([TEXT, IMAGE], {}, budget, assets={"c1": link}).text
        assert count_tokens(text) <= budget  # the link line's tokens are counted
    assert "\n\n[2]" in full.text
