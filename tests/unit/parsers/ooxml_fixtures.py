"""Generated inputs and corpus helpers shared by the DOCX and PPTX parser tests."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import TYPE_CHECKING, Any

from docshelf.model import Block, Table
from docshelf.tables import table_grid

if TYPE_CHECKING:
    from pathlib import Path


def saved_bytes(package: Any) -> bytes:
    """The bytes of a python-docx document or python-pptx presentation, saved in memory."""
    buffer = io.BytesIO()
    package.save(buffer)
    return buffer.getvalue()


def png_bytes(width: int = 4, height: int = 3) -> bytes:
    """A valid RGB PNG of the given size (python-docx and python-pptx read its header)."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def zip_bomb(member: str, size: int) -> bytes:
    """A zip whose single member inflates to `size` bytes of spaces."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, b" " * size)
    return buffer.getvalue()


def corpus_files(corpus_dir: Path, fmt: str) -> list[str]:
    lines = (corpus_dir / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[0] for line in lines if line.split("\t")[0].endswith(f".{fmt}")]


def grid_text(blocks: list[Block]) -> str:
    """Block texts, tables as their full grid (the references repeat a merged cell's text in every position)."""
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, Table):
            parts.extend(text for row in table_grid(block) for text in row)
        else:
            parts.append(block.text)
    return "\n".join(parts)


def docx_with_objects(objects: list[tuple[str, bytes, str]], *, suffix: str = "bin") -> bytes:
    """A DOCX whose paragraphs hold embedded OLE objects as Word keeps them: (text before, the object's bytes, its
    ProgID); an empty text puts the object alone in its paragraph, text after it ends the paragraph. The objects'
    parts are `word/embeddings/oleObjectN.<suffix>` (`xlsx` for a worksheet Word embeds as a package)."""
    import docx
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from lxml import etree

    source = docx.Document()
    for number, (before, blob, prog_id) in enumerate(objects, start=1):
        kind = "application/vnd.openxmlformats-officedocument.oleObject"
        part = Part(PackURI(f"/word/embeddings/oleObject{number}.{suffix}"), kind, blob, source.part.package)
        rel_id = source.part.relate_to(
            part, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject"
        )
        paragraph = source.add_paragraph(before)
        paragraph._p.append(
            etree.fromstring(
                '<w:r xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
                'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
                'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                f'<w:object><v:shape id="s{number}" style="width:60pt;height:20pt" o:ole=""/>'
                f'<o:OLEObject Type="Embed" ProgID="{prog_id}" ShapeID="s{number}" r:id="{rel_id}"/></w:object></w:r>'
            )
        )
        if before:
            paragraph.add_run(" holds.")
    out = io.BytesIO()
    source.save(out)
    return out.getvalue()
