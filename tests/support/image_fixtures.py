"""Documents with pictures, generated: PNG/JPEG images drawn with Pillow, placed with the formats' own writers
(python-docx, python-pptx, reportlab) or zipped by hand (ODT, EPUB)."""

from __future__ import annotations

import base64
import io
import zipfile

import numpy as np
from PIL import Image, ImageDraw


def logo(size: tuple[int, int] = (160, 80), *, seed: int = 0, fmt: str = "PNG") -> bytes:
    """A flat-colour logo: shapes on white, different for each seed."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    rng = np.random.default_rng(seed)
    for _ in range(4):
        x0, y0 = int(rng.integers(0, size[0] // 2)), int(rng.integers(0, size[1] // 2))
        x1, y1 = x0 + int(rng.integers(size[0] // 4, size[0] // 2)), y0 + int(rng.integers(size[1] // 4, size[1] // 2))
        colour = tuple(int(c) for c in rng.integers(0, 200, 3))
        draw.ellipse((x0, y0, x1, y1), fill=colour) if seed % 2 else draw.rectangle((x0, y0, x1, y1), fill=colour)
    return encoded(image, fmt)


def photo(size: tuple[int, int] = (240, 160), *, seed: int = 0) -> bytes:
    """A photo-like JPEG: smooth gradients with noise."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0 : size[1], 0 : size[0]]
    base = np.stack([x * 255 / size[0], y * 255 / size[1], (x + y) * 127 / sum(size)], axis=-1)
    noisy = np.clip(base + rng.normal(0, 12, base.shape), 0, 255).astype(np.uint8)
    return encoded(Image.fromarray(noisy), "JPEG")


def encoded(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


def docx_with_pictures(pictures: list[tuple[bytes, str]]) -> bytes:
    """Paragraph, picture (with its alt text), paragraph, for each picture."""
    import docx
    from docx.shared import Pt

    document = docx.Document()
    document.add_heading("Pump manual", level=1)
    for number, (data, alt) in enumerate(pictures, start=1):
        document.add_paragraph(f"Before picture {number}: the pump housing is shown below.")
        shape = document.add_picture(io.BytesIO(data), width=Pt(120))
        shape._inline.docPr.set("descr", alt)
        document.add_paragraph(f"After picture {number}: tighten the four bolts.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def pptx_with_pictures(pictures: list[tuple[bytes, str]]) -> bytes:
    from pptx import Presentation
    from pptx.util import Inches

    presentation = Presentation()
    for number, (data, alt) in enumerate(pictures, start=1):
        slide = presentation.slides.add_slide(presentation.slide_layouts[5])
        slide.shapes.title.text = f"Slide {number}"
        picture = slide.shapes.add_picture(io.BytesIO(data), Inches(1), Inches(2), width=Inches(3))
        picture._element.nvPicPr.cNvPr.set("descr", alt)
    buffer = io.BytesIO()
    presentation.save(buffer)
    return buffer.getvalue()


def pdf_with_logo(
    pages: int, logo_png: bytes, *, photo_on: int = 0, photo_jpeg: bytes = b"", other_logo: bytes = b""
) -> bytes:
    """Every page: the logo at the top (`other_logo` on even pages, when given), a paragraph of text; page
    `photo_on` also a photo mid-page."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(595, 842))
    for number in range(1, pages + 1):
        drawn = other_logo if other_logo and number % 2 == 0 else logo_png
        pdf.drawImage(ImageReader(io.BytesIO(drawn)), 40, 760, width=80, height=40)
        pdf.setFont("Helvetica", 11)
        pdf.drawString(40, 700, f"Page {number} text above the figure about the cooling loop.")
        if number == photo_on:
            pdf.drawImage(ImageReader(io.BytesIO(photo_jpeg)), 40, 450, width=240, height=160)
        pdf.drawString(40, 400, f"Page {number} text below the figure about the pressure valve.")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def data_uri(data: bytes, media_type: str = "image/png") -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"


def html_with_images(inline: bytes) -> bytes:
    return (
        "<html><head><title>Valves</title></head><body><h1>Valves</h1>"
        "<p>The valve assembly is drawn here.</p>"
        f'<img src="{data_uri(inline)}" alt="Exploded view of the valve">'
        '<img src="https://example.com/remote.png" alt="A remote picture">'
        '<img src="http://127.0.0.1/tracker.gif">'
        "<p>Replace the seal every year.</p></body></html>"
    ).encode()


def odt_with_picture(data: bytes, alt: str) -> bytes:
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2">
<office:body><office:text>
<text:h text:outline-level="1">Boiler</text:h>
<text:p>The boiler is shown here.<draw:frame draw:name="Image1"><draw:image xlink:href="Pictures/boiler.png"/>
<svg:title>{alt}</svg:title></draw:frame></text:p>
<text:p>Its pilot light is blue.<draw:frame draw:name="Image2">
<draw:image xlink:href="../outside.png"/></draw:frame></text:p>
</office:text></office:body></office:document-content>"""
    return _zip(
        {
            "mimetype": b"application/vnd.oasis.opendocument.text",
            "content.xml": content.encode(),
            "Pictures/boiler.png": data,
        }
    )


def epub_with_picture(data: bytes, alt: str) -> bytes:
    chapter = f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body>
<h1>Chapter one</h1><p>The lighthouse stands on the cliff.</p>
<img src="../images/lighthouse.png" alt="{alt}"/>
<p>Its lamp turns every ten seconds.</p></body></html>"""
    opf = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title>Lights</dc:title></metadata><manifest>
<item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>
<item id="i1" href="images/lighthouse.png" media-type="image/png"/></manifest>
<spine><itemref idref="c1"/></spine></package>"""
    container = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"""
    return _zip(
        {
            "mimetype": b"application/epub+zip",
            "META-INF/container.xml": container.encode(),
            "OEBPS/content.opf": opf.encode(),
            "OEBPS/text/one.xhtml": chapter.encode(),
            "OEBPS/images/lighthouse.png": data,
        }
    )


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data, compress_type=zipfile.ZIP_STORED if name == "mimetype" else None)
    return buffer.getvalue()
