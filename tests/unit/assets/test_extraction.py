"""Every format with embedded pictures yields Image blocks in reading order with their assets."""

from __future__ import annotations

import pytest

from docshelf.assets.prepare import prepare_bytes
from docshelf.model import Document, Image, is_asset_ref
from docshelf.parsers import parse_with_assets
from tests.support.image_fixtures import (
    data_uri,
    docx_with_pictures,
    epub_with_picture,
    html_with_images,
    logo,
    odt_with_picture,
    pdf_with_logo,
    photo,
    pptx_with_pictures,
)

LOGO = logo(seed=1)
PHOTO = photo(seed=1)
LOGO_REF = prepare_bytes(LOGO).ref  # type: ignore[union-attr]
PHOTO_REF = prepare_bytes(PHOTO).ref  # type: ignore[union-attr]


def _kinds(document: Document) -> list[str]:
    return [block.kind for block in document.blocks()]


def _images(document: Document) -> list[Image]:
    return [block for block in document.blocks() if isinstance(block, Image)]


def test_docx_pictures_in_reading_order_with_alt_text_and_size() -> None:
    document, assets = parse_with_assets(docx_with_pictures([(LOGO, "Company logo"), (PHOTO, "Pump photo")]), "m.docx")
    assert _kinds(document) == ["heading", *["paragraph", "image", "paragraph"] * 2]
    images = _images(document)
    assert [(i.asset_ref, i.alt_text, i.width, i.height) for i in images] == [
        (LOGO_REF, "Company logo", 160, 80),
        (PHOTO_REF, "Pump photo", 240, 160),
    ]
    assert assets == {LOGO_REF: LOGO, PHOTO_REF: PHOTO}


def test_pptx_pictures_per_slide() -> None:
    document, assets = parse_with_assets(pptx_with_pictures([(LOGO, "Logo"), (PHOTO, ""), (LOGO, "Logo")]), "s.pptx")
    assert [(i.page, i.asset_ref, i.alt_text) for i in _images(document)] == [
        (1, LOGO_REF, "Logo"),
        (2, PHOTO_REF, ""),
        (3, LOGO_REF, "Logo"),
    ]
    assert set(assets) == {LOGO_REF, PHOTO_REF}


def test_pdf_logo_on_every_page_is_one_asset() -> None:
    document, assets = parse_with_assets(pdf_with_logo(6, LOGO, photo_on=3, photo_jpeg=PHOTO), "r.pdf")
    images = _images(document)
    refs = [image.asset_ref for image in images]
    assert len(assets) == 2
    logo_ref = refs[0]
    assert [image.page for image in images if image.asset_ref == logo_ref] == [1, 2, 3, 4, 5, 6]
    photo_ref = next(ref for ref in refs if ref != logo_ref)
    assert assets.keys() == {logo_ref, photo_ref}
    page_three = [block.kind for block in document.pages[2].blocks]
    assert page_three == ["image", "paragraph", "image", "paragraph"]  # logo first, the photo between the texts
    assert (images[0].width, images[0].height) == (160, 80)


def test_html_keeps_data_uri_images_and_never_fetches_urls() -> None:
    document, assets = parse_with_assets(html_with_images(LOGO), "v.html")
    images = _images(document)
    assert [(i.asset_ref, i.alt_text) for i in images] == [
        (LOGO_REF, "Exploded view of the valve"),
        ("https://example.com/remote.png", "A remote picture"),
    ]
    assert assets == {LOGO_REF: LOGO}


def test_odt_and_epub_package_members() -> None:
    odt, odt_assets = parse_with_assets(odt_with_picture(LOGO, "Boiler drawing"), "b.odt")
    assert [(i.asset_ref, i.alt_text) for i in _images(odt)] == [(LOGO_REF, "Boiler drawing")]  # ../ is refused
    assert odt_assets == {LOGO_REF: LOGO}
    epub, epub_assets = parse_with_assets(epub_with_picture(PHOTO, "Lighthouse"), "l.epub")
    assert _kinds(epub) == ["heading", "paragraph", "image", "paragraph"]
    assert [(i.asset_ref, i.alt_text) for i in _images(epub)] == [(PHOTO_REF, "Lighthouse")]
    assert epub_assets == {PHOTO_REF: PHOTO}
    assert all(is_asset_ref(ref) for ref in [*odt_assets, *epub_assets])


def test_pdf_logo_re_encoded_on_some_pages_is_still_one_asset() -> None:
    recompressed = logo(seed=1, fmt="JPEG")
    document, assets = parse_with_assets(pdf_with_logo(4, LOGO, other_logo=recompressed), "r.pdf")
    assert len(assets) == 1
    assert len({image.asset_ref for image in _images(document)}) == 1
    assert [image.page for image in _images(document)] == [1, 2, 3, 4]


def test_pdf_page_workers_give_the_serial_result(monkeypatch: pytest.MonkeyPatch) -> None:
    from docshelf import forked
    from docshelf.parsers.pdf import pdf_workers

    data = pdf_with_logo(120, LOGO, photo_on=100, photo_jpeg=PHOTO)
    monkeypatch.setenv(forked.CPUS_ENV, "1")
    serial = parse_with_assets(data, "long.pdf")
    monkeypatch.delenv(forked.CPUS_ENV)
    monkeypatch.setattr(forked, "spare_cpus", lambda: 2)
    if pdf_workers.worker_count(120) < 2:
        pytest.skip("no fork on this platform")
    assert parse_with_assets(data, "long.pdf") == serial
    assert len(serial[1]) == 2


def test_captions_from_word_caption_style_and_html_figcaption() -> None:
    import io

    import docx
    from docx.shared import Pt

    word = docx.Document()
    word.add_paragraph("Intro")
    word.add_picture(io.BytesIO(LOGO), width=Pt(100))
    word.add_paragraph("Figure 1: The pump housing", style="Caption")
    buffer = io.BytesIO()
    word.save(buffer)
    document, _ = parse_with_assets(buffer.getvalue(), "c.docx")
    assert [(i.caption, i.asset_ref) for i in _images(document)] == [("Figure 1: The pump housing", LOGO_REF)]
    page = (
        f'<html><body><p>Intro</p><figure><img src="{data_uri(LOGO)}" alt="Logo">'
        "<figcaption>Figure 2: <b>Valve</b> body</figcaption></figure></body></html>"
    ).encode()
    document, _ = parse_with_assets(page, "c.html")
    assert [(i.caption, i.alt_text) for i in _images(document)] == [("Figure 2: Valve body", "Logo")]


def test_html_pictures_in_a_data_tables_cells_follow_the_table_as_in_docx() -> None:
    page = f"""<html><body><p>Parts:</p><table><tr><th>Part</th><th>Picture</th></tr>
    <tr><td>Valve</td><td><img src="{data_uri(LOGO)}" alt="The valve"></td></tr>
    <tr><td>Seal</td><td><img src="https://example.com/seal.png" alt="The seal"></td></tr></table>
    <p>After the table.</p></body></html>"""
    document, assets = parse_with_assets(page.encode(), "parts.html")
    assert _kinds(document) == ["paragraph", "table", "image", "paragraph"]
    assert [(i.asset_ref, i.alt_text) for i in _images(document)] == [(LOGO_REF, "The valve")]  # a URL stays text
    assert assets == {LOGO_REF: LOGO}
