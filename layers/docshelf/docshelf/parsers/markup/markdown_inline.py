"""Markdown inline markup to plain text: links keep their text, emphasis markers go, images become Image blocks.

markdown-it-py tokenises the inline run: its delimiter algorithm is linear where regexes over emphasis,
strike-through, links and HTML comments backtrack quadratically on unclosed markers (`*a *a *a ...`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference

from docshelf.model import Image

if TYPE_CHECKING:
    from markdown_it.token import Token

_HTML_IMG = re.compile(r"<img\b[^>]*>", re.I)
_HTML_ATTR = re.compile(r"""\b(alt|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_HTML_BREAK = re.compile(r"<br\s*/?>", re.I)
_MAX_ASSET_REF = 2048
# GFM strike-through on top of CommonMark; raw HTML is tokenised (and dropped) rather than kept as text.
_PARSER = MarkdownIt("commonmark", {"html": True}).enable("strikethrough")
_BREAKS = frozenset({"softbreak", "hardbreak"})
# The characters at which one of the enabled inline rules (escapes, code, emphasis, strike-through, links, images,
# autolinks, raw HTML, entities, line breaks) or the input normalisation can act: a run without any is plain text.
_INLINE_SYNTAX = re.compile(r"[\n\r\0\\`*_\[\]!<&~]")
# Without link reference definitions, brackets and `!` act only in `[text](target)` and `![alt](source)`: a run
# whose other characters are plain and that holds no `](` is plain text too (papers cite as "[12]" or "[3, 4]").
_INLINE_SYNTAX_BUT_BRACKETS = re.compile(r"[\n\r\0\\`*_<&~]")

# normalised label -> {"href", "title"}: the shape markdown-it's reference rule looks labels up in.
LinkReferences = dict[str, dict[str, str]]


def link_references(labels: Sequence[str]) -> LinkReferences:
    """The document's link reference definitions, so that `[text][label]` renders as its text."""
    return {normalizeReference(label): {"href": "", "title": ""} for label in labels}


def render_inline(text: str, *, page: int, references: LinkReferences | None = None) -> tuple[str, list[Image]]:
    """Plain text of a Markdown inline run, and the images it contains (in order)."""
    if _is_plain(text, references):  # markdown-it would return it as text tokens alone
        return _plain_lines(text), []
    images: list[Image] = []
    parts: list[str] = []
    for token in _PARSER.parseInline(text, {"references": references or {}}):
        _render(token.children or [], page, parts, images)
    return _plain_lines("".join(parts)), images


def _is_plain(text: str, references: LinkReferences | None) -> bool:
    if not _INLINE_SYNTAX.search(text):
        return True
    return not references and "](" not in text and not _INLINE_SYNTAX_BUT_BRACKETS.search(text)


def _plain_lines(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _render(tokens: Sequence[Token], page: int, parts: list[str], images: list[Image]) -> None:
    for token in tokens:
        if token.type in ("text", "code_inline"):
            parts.append(token.content)
        elif token.type in _BREAKS:
            parts.append("\n")
        elif token.type == "image":
            alt = _plain(token.children or []).strip()
            if alt:
                images.append(
                    Image(page=page, alt_text=alt, asset_ref=str(token.attrs.get("src", ""))[:_MAX_ASSET_REF])
                )
        elif token.type == "html_inline":
            parts.append(_html_inline(token.content, page, images))


def _plain(tokens: Sequence[Token]) -> str:
    parts: list[str] = []
    _render(tokens, 0, parts, [])
    return "".join(parts)


def _html_inline(tag: str, page: int, images: list[Image]) -> str:
    """Inline HTML is dropped but for line breaks and the alt text of pictures."""
    if _HTML_BREAK.fullmatch(tag):
        return "\n"
    if _HTML_IMG.fullmatch(tag):
        attrs = {m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or "" for m in _HTML_ATTR.finditer(tag)}
        alt = attrs.get("alt", "").strip()
        if alt:
            images.append(
                Image(page=page, alt_text=html.unescape(alt), asset_ref=attrs.get("src", "")[:_MAX_ASSET_REF])
            )
    return ""
