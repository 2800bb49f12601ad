"""Jupyter notebooks (`.ipynb`, nbformat 4 and 3): what the notebook shows, in order. A markdown cell is read as a
Markdown file is (its headings the notebook's sections; its pasted pictures, the cell's `attachments`, kept); a code
cell is code; its outputs follow it as the notebook displays them: a picture (PNG, JPEG), an HTML output's tables
and text (a pandas DataFrame is a table), Markdown, or its plain text as preformatted text, and an error as its name
and message. Terminal colour codes are left out of text outputs."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from typing import Any

from docshelf.assets.collect import AssetCollector, ImageSource
from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Image, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.html import embedded_html_blocks
from docshelf.parsers.markup.markdown_blocks import markdown_blocks
from docshelf.parsers.textcodec import decode_text

PICTURES = ("image/png", "image/jpeg", "image/gif")
# nbformat 3 names an output's data by short keys
_V3_KEYS = {"png": "image/png", "jpeg": "image/jpeg", "html": "text/html", "markdown": "text/markdown",
            "latex": "text/latex", "text": "text/plain"}  # fmt: skip
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MAX_CELLS = 100_000


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    text, _ = decode_text(data)
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CorruptDocumentError(f"not a readable notebook: {exc}") from exc
    cells = _cells(notebook)
    if cells is None:
        raise CorruptDocumentError("a JSON file that is no notebook (no cells)")
    collector = AssetCollector()
    blocks: list[Block] = []
    for cell in cells[:MAX_CELLS]:
        if isinstance(cell, dict):
            blocks += _cell(cell, collector)
    metadata = notebook.get("metadata") if isinstance(notebook.get("metadata"), dict) else {}
    title = str(metadata.get("title") or "")  # else the first heading, as for every format (parsers.assemble)
    return ParsedContent(blocks=blocks, page_count=1, title=title, assets=collector.assets)


def _cells(notebook: Any) -> list[Any] | None:
    if not isinstance(notebook, dict):
        return None
    if isinstance(notebook.get("cells"), list):
        return list(notebook["cells"])
    sheets = notebook.get("worksheets")
    if isinstance(sheets, list):  # nbformat 3
        return [cell for sheet in sheets if isinstance(sheet, dict) for cell in sheet.get("cells") or []]
    return None


def _cell(cell: Mapping[str, Any], collector: AssetCollector) -> list[Block]:
    kind = cell.get("cell_type")
    source = _joined(cell.get("source", cell.get("input", "")))
    if kind == "markdown":
        return _markdown(source, _attachments(cell.get("attachments")), collector)
    if kind == "heading":  # nbformat 3
        level = cell.get("level")
        level = max(1, min(level, 6)) if isinstance(level, int) else 1
        return [Heading(text=" ".join(source.split()), level=level, page=1)] if source.strip() else []
    if kind == "code":
        blocks: list[Block] = [Paragraph(text=source.rstrip(), page=1, code=True)] if source.strip() else []
        for output in cell.get("outputs") or []:
            if isinstance(output, dict):
                blocks += _output(output, collector)
        return blocks
    return [Paragraph(text=source.strip(), page=1)] if source.strip() else []  # a raw cell


def _markdown(source: str, pictures: Mapping[str, bytes], collector: AssetCollector) -> list[Block]:
    """The cell's blocks, its `attachment:` pictures read (another picture stays a reference, as in Markdown files)."""
    blocks: list[Block] = []
    for block in markdown_blocks(source, page=1):
        if isinstance(block, Image) and block.asset_ref.startswith("attachment:"):
            data = pictures.get(block.asset_ref.removeprefix("attachment:"))
            image = collector.image_of(data, page=1, alt_text=block.alt_text) if data is not None else None
            if image is not None:
                blocks.append(image)
            continue
        blocks.append(block)
    return blocks


def _attachments(value: Any) -> dict[str, bytes]:
    """A markdown cell's pasted pictures by name."""
    found: dict[str, bytes] = {}
    for name, bundle in (value or {}).items() if isinstance(value, dict) else ():
        data = _picture(bundle) if isinstance(bundle, dict) else None
        if data is not None:
            found[str(name)] = data
    return found


def _output(output: Mapping[str, Any], collector: AssetCollector) -> list[Block]:
    kind = output.get("output_type")
    if kind == "stream":
        return _preformatted(_joined(output.get("text", "")))
    if kind in ("error", "pyerr"):
        shown = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}".strip()
        return [Paragraph(text=_ANSI.sub("", shown), page=1)]
    bundle = _bundle(output)
    picture = _picture(bundle)
    if picture is not None:
        image = collector.image_of(picture, page=1, alt_text=_joined(bundle.get("text/plain", "")).strip())
        return [image] if image is not None else []
    if "text/html" in bundle:
        no_pictures = ImageSource(lambda src: None, collector)
        return [_output_block(block) for block in embedded_html_blocks(_joined(bundle["text/html"]), no_pictures)]
    if "text/markdown" in bundle:
        return markdown_blocks(_joined(bundle["text/markdown"]), page=1)
    if "text/latex" in bundle:
        return _preformatted(_joined(bundle["text/latex"]))
    return _preformatted(_joined(bundle.get("text/plain", "")))


def _bundle(output: Mapping[str, Any]) -> dict[str, Any]:
    """An output's data by media type (nbformat 3 names it by short keys on the output itself)."""
    data = output.get("data")
    if isinstance(data, dict):
        return data
    return {_V3_KEYS[key]: value for key, value in output.items() if key in _V3_KEYS}


def _output_block(block: Block) -> Block:
    """An HTML output's heading is no section of the notebook: its text only."""
    return Paragraph(text=block.text, page=block.page) if isinstance(block, Heading) else block


def _picture(bundle: Mapping[str, Any]) -> bytes | None:
    for kind in PICTURES:
        if kind in bundle:
            try:
                return base64.b64decode("".join(_joined(bundle[kind]).split()), validate=True)
            except (binascii.Error, ValueError):
                return None
    return None


def _preformatted(text: str) -> list[Block]:
    shown = _ANSI.sub("", text).strip("\n")
    return [Paragraph(text=shown, page=1, code=True)] if shown.strip() else []


def _joined(value: Any) -> str:
    """A notebook's multi-line string: a string, or a list of lines."""
    if isinstance(value, list):
        return "".join(str(part) for part in value)
    return value if isinstance(value, str) else ""
