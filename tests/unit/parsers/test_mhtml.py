"""Web pages saved as one file (.mht, .mhtml): the page as an HTML file is read, its pictures from the archive."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Image, Table
from docshelf.parsers import parse_bytes, parse_with_assets
from docshelf.parsers.detect import detect_format
from docshelf.tables import table_grid
from tests.support.image_fixtures import logo

PAGE = "https://example.com/manual/pump.html"


def web_archive(html: str, pictures: dict[str, bytes], *, by_id: bool = False) -> bytes:
    """As a browser saves a page: the HTML part first, each picture with the address it was loaded from."""
    archive = EmailMessage()
    archive["From"] = "<Saved by Blink>"
    archive["Snapshot-Content-Location"] = PAGE
    archive["Subject"] = "Pump manual - Example"
    archive["MIME-Version"] = "1.0"
    archive.set_content(html, subtype="html")
    archive.make_related()
    archive.get_payload()[0]["Content-Location"] = PAGE  # type: ignore[index]
    for address, data in pictures.items():
        archive.add_related(data, "image", "png", cid=f"<{address}>" if by_id else None)
        if not by_id:
            archive.get_payload()[-1]["Content-Location"] = address  # type: ignore[index]
    return archive.as_bytes()


def test_the_saved_page_with_its_pictures_by_the_address_they_came_from() -> None:
    html = (
        "<html><head><title>Pump manual</title></head><body><h1>Pump manual</h1><h2>Torque</h2>"
        "<table><tr><th>Bolt</th><th>Nm</th></tr><tr><td>M10</td><td>45</td></tr></table>"
        "<img src='img/diagram.png' alt='Flange diagram'><img src='/static/logo.png' alt='ACME'>"
        "<img src='https://tracker.example.net/p.gif' alt='tracker'></body></html>"
    )
    pictures = {
        "https://example.com/manual/img/diagram.png": logo((160, 80)),
        "https://example.com/static/logo.png": logo((120, 64), seed=2),
    }
    data = web_archive(html, pictures)
    assert detect_format(data, "pump.mhtml") == "mhtml" and detect_format(data, "pump.mht") == "mhtml"
    document, assets = parse_with_assets(data, "pump.mhtml")
    blocks = list(document.blocks())
    assert document.title == "Pump manual"
    assert [(b.text, b.level) for b in blocks if isinstance(b, Heading)] == [("Pump manual", 1), ("Torque", 2)]
    assert table_grid(next(b for b in blocks if isinstance(b, Table))) == [["Bolt", "Nm"], ["M10", "45"]]
    images = [b for b in blocks if isinstance(b, Image)]
    assert [(i.width, i.alt_text) for i in images[:2]] == [(160, "Flange diagram"), (120, "ACME")]
    assert len(assets) == 2  # the tracker was never saved, and is never fetched


def test_pictures_by_content_id_and_what_is_no_web_archive() -> None:
    data = web_archive("<p>See <img src='cid:part1.abc@x' alt='pump'></p>", {"part1.abc@x": logo((90, 45))}, by_id=True)
    document, assets = parse_with_assets(data, "page.mht")
    assert [b.kind for b in document.blocks()] == ["paragraph", "image"] and len(assets) == 1
    plain = EmailMessage()
    plain["Subject"] = "no page"
    plain.set_content("just text")
    with pytest.raises(CorruptDocumentError, match="no HTML page"):
        parse_bytes(plain.as_bytes(), "page.mht")
