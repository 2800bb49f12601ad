"""Markdown inline markup to plain text: links keep their text, emphasis markers go, images become Image blocks."""

from __future__ import annotations

import html
import re

from docshelf.model import Image

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
_IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\](?:\((?:[^()]|\([^)]*\))*\)|\[[^\]]*\])")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+|[^>\s@]+@[^>\s@]+)>")
_HTML_IMG = re.compile(r"<img\b[^>]*>", re.I)
_HTML_ATTR = re.compile(r"""\b(alt|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_HTML_BREAK = re.compile(r"<br\s*/?>", re.I)
_HTML_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>", re.S)
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_PLACEHOLDER = re.compile("\ue001(\\d+)\ue001")


def render_inline(text: str, *, page: int) -> tuple[str, list[Image]]:
    """Plain text of a Markdown inline run, and the images it contains (in order)."""
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(match.group(2).strip() if match.group(2).strip() else match.group(2))
        return f"\ue001{len(codes) - 1}\ue001"

    images: list[Image] = []

    def markdown_image(match: re.Match[str]) -> str:
        alt = _ESCAPE.sub(r"\1", match.group(1)).strip()
        if alt:
            images.append(Image(page=page, alt_text=html.unescape(alt), asset_ref=match.group(2)[:2048]))
        return ""

    def html_image(match: re.Match[str]) -> str:
        attrs = {
            m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or "" for m in _HTML_ATTR.finditer(match[0])
        }
        if attrs.get("alt", "").strip():
            images.append(
                Image(page=page, alt_text=html.unescape(attrs["alt"].strip()), asset_ref=attrs.get("src", ""))
            )
        return ""

    text = _CODE_SPAN.sub(keep_code, text)
    text = _IMAGE.sub(markdown_image, text)
    text = _HTML_IMG.sub(html_image, text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _AUTOLINK.sub(lambda m: m.group(1), text)
    text = _HTML_BREAK.sub("\n", text)
    text = _HTML_TAG.sub("", text)
    for _ in range(2):
        text = _STRONG.sub(lambda m: m.group(2), text)
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    text = _STRIKE.sub(lambda m: m.group(1), text)
    text = html.unescape(_ESCAPE.sub(r"\1", text))
    text = _PLACEHOLDER.sub(lambda m: codes[int(m.group(1))], text)
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line), images
