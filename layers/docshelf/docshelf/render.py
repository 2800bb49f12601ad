"""Markdown rendering of a typed document (headings as #, tables as pipe tables, page breaks marked)."""

from __future__ import annotations

from docshelf.model import Document
from docshelf.tables import table_to_markdown


def document_to_markdown(document: Document) -> str:
    parts: list[str] = []
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
                    parts.append("  " * block.list_level + "- " + block.text)
                else:
                    parts.append(block.text)
            elif block.kind == "table":
                parts.append("\n\n".join(filter(None, [block.caption, table_to_markdown(block)])))
            elif block.text:
                parts.append(f"![{' '.join(block.text.split())}]({block.asset_ref})")
    return "\n\n".join(parts) + "\n"
