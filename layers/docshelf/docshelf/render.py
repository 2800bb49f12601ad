"""Markdown and HTML renderings of a typed document (headings, lists, tables with their spans, page breaks)."""

from __future__ import annotations

import html
import re

from docshelf.model import Block, Document
from docshelf.tables import table_to_html, table_to_markdown

# An item that carries its own number (`1.`, `2)`) is an ordered list item in Markdown as written: no bullet before.
_NUMBERED_ITEM = re.compile(r"\d{1,9}[.)]\s")


def document_to_markdown(document: Document) -> str:
    parts: list[str] = []
    markers: list[int] = []  # the width of the last item's marker at each list level, which its nested items indent by
    for page in document.pages:
        if len(document.pages) > 1:
            label = f" ({page.label})" if page.label else ""
            parts.append(f"<!-- page {page.number}{label} -->")
        for block in page.blocks:
            if block.kind == "heading":
                parts.append("#" * min(block.level, 6) + " " + " ".join(block.text.split()))
            elif block.kind == "paragraph":
                if block.code:
                    parts.append(f"```\n{block.text}\n```")
                elif block.list_level is not None:
                    parts.append(_list_item(block.text, block.list_level, markers))
                else:
                    parts.append(block.text)
            elif block.kind == "table":
                parts.append("\n\n".join(filter(None, [block.caption, table_to_markdown(block)])))
            elif block.text:
                parts.append(f"![{' '.join(block.text.split())}]({block.asset_ref})")
    return "\n\n".join(parts) + "\n"


def _list_item(text: str, level: int, markers: list[int]) -> str:
    """A list item's Markdown line: `- ` before it unless it opens with its own number, indented past the markers of
    the items it is nested in (three columns under `1. `, two under `- `)."""
    marker = "" if _NUMBERED_ITEM.match(text) else "- "
    del markers[level:]
    indent = sum(markers) + 2 * max(0, level - len(markers))
    markers.append(len(marker) or len(text.split(" ", 1)[0]) + 1)
    return " " * indent + marker + text


def document_to_html(document: Document) -> str:
    """A standalone HTML page; tables keep their merged cells (rowspan/colspan), which Markdown cannot show."""
    title = html.escape(document.title)
    parts = [f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head><body>']
    in_list = False
    for page in document.pages:
        if len(document.pages) > 1:
            label = f" ({page.label})" if page.label else ""
            parts.append(f"<!-- page {page.number}{html.escape(label).replace('--', '- -')} -->")
        for block in page.blocks:
            is_item = block.kind == "paragraph" and block.list_level is not None and not block.code
            if is_item != in_list:
                parts.append("<ul>" if is_item else "</ul>")
                in_list = is_item
            parts.append(block_to_html(block))
    if in_list:
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def block_to_html(block: Block) -> str:
    if block.kind == "table":
        return table_to_html(block)
    text = html.escape(block.text)
    if block.kind == "heading":
        level = min(max(block.level, 1), 6)
        return f"<h{level}>{text}</h{level}>"
    if block.kind == "image":
        return f'<img src="{html.escape(block.asset_ref)}" alt="{text}">'
    if block.code:
        return f"<pre><code>{text}</code></pre>"
    if block.list_level is not None:
        return f'<li style="margin-left: {block.list_level * 2}em">{text}</li>'
    return f"<p>{text}</p>"
