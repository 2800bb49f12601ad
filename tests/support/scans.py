"""Scans the OCR tests and bench make: text rendered to page images (clean or degraded), then to PNG, TIFF or
image-only PDF, and the character error rate of what OCR reads back.

English is drawn with reportlab's Bitstream Vera; Chinese and Japanese with Debian's Droid Sans Fallback, which
`make setup` places in tests/fonts (infra/fetch_ocr_data.py --fonts).
"""

from __future__ import annotations

import io
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np
import reportlab
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from docshelf.edit_distance import edit_distance
from docshelf.scripts import no_space_script

FONT_DIR = Path(__file__).resolve().parents[1] / "fonts"
CJK_FONT = FONT_DIR / "DroidSansFallbackFull.ttf"
LATIN_FONT = Path(reportlab.__file__).resolve().parent / "fonts" / "Vera.ttf"
# bench/ocr_bench.py's faces per script (infra/fetch_ocr_data.py --fonts): a serif, a sans and Droid's fallback.
SCRIPT_FONTS = {
    "jpn": {"IPA Mincho": FONT_DIR / "ipam.ttf", "IPA Gothic": FONT_DIR / "ipag.ttf", "Droid Sans": CJK_FONT},
    "chi_sim": {"AR PL UMing": FONT_DIR / "uming.ttc", "WenQuanYi Micro Hei": FONT_DIR / "wqy-microhei.ttc",
                "Droid Sans": CJK_FONT},
}  # fmt: skip
A4_INCHES = (8.27, 11.69)

PARAGRAPHS = {
    "eng": [
        "The quarterly maintenance report covers the pumps, valves and seals of the northern plant. Revenue from "
        "service contracts grew by 12 percent while operating costs remained stable across all regions.",
        "Customers in Europe and Asia adopted the new monitoring platform quickly, and the support team resolved "
        "most tickets within two working days. Three stem seals were replaced in March.",
        "Next year the team plans to inspect every boiler feed pump twice and to publish the results online.",
    ],
    "chi_sim": [
        "本季度维护报告涵盖北方工厂的水泵、阀门和密封件。服务合同收入增长了百分之十二，而各地区的运营成本保持稳定。",
        "欧洲和亚洲的客户迅速采用了新的监控平台，支持团队在两个工作日内解决了大多数问题。三月份更换了三个阀杆密封。",
        "明年团队计划对每台锅炉给水泵检查两次，并在网上公布结果。",
    ],
    "jpn": [
        "四半期保守報告書は北部工場のポンプ、バルブ、シールを対象としています。サービス契約の売上は十二パーセント増加し、"
        "すべての地域で運営費は安定していました。",
        "欧州とアジアの顧客は新しい監視プラットフォームをすぐに採用し、サポートチームは二営業日以内にほとんどの問題を解決しました。",
        "来年、チームはすべてのボイラー給水ポンプを二回点検し、結果を公開する予定です。",
    ],
}


def font_path(language: str) -> Path:
    return LATIN_FONT if language == "eng" else CJK_FONT


def render_page(
    paragraphs: list[str],
    language: str,
    *,
    dpi: int = 300,
    points: float = 12,
    title: str = "",
    font_file: Path | None = None,
) -> Image.Image:
    """An A4 page in 8-bit grey with the paragraphs typeset at `points` size, wrapped to 1-inch margins, under a
    `title` at twice that size when one is given; in `font_file`, else the script's default face."""
    width, height = round(A4_INCHES[0] * dpi), round(A4_INCHES[1] * dpi)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    face = str(font_file or font_path(language))
    font = ImageFont.truetype(face, round(points / 72 * dpi))
    line_height = round(points * 1.5 / 72 * dpi)
    y = dpi
    if title:
        _draw_with_fallback(draw, (dpi, y), title, ImageFont.truetype(face, round(points / 36 * dpi)))
        y += 3 * line_height
    for paragraph in paragraphs:
        for line in _wrap(paragraph, font, width - 2 * dpi, language):
            _draw_with_fallback(draw, (dpi, y), line, font)
            y += line_height
        y += line_height  # a blank line between paragraphs
    return page


def _draw_with_fallback(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], text: str, font: ImageFont.FreeTypeFont
) -> None:
    """`text` in `font`, its characters the face has no glyph for (Droid Sans Fallback has no Latin letters or ASCII
    digits) in Vera at the same size, as a typesetter's font fallback would: not the face's empty boxes."""
    x, y = at
    for run, has_glyphs in _glyph_runs(text, font):
        face = font if has_glyphs else _face(str(LATIN_FONT), round(font.size))
        draw.text((x, y), run, font=face, fill=0)
        x += round(face.getlength(run))


def _glyph_runs(text: str, font: ImageFont.FreeTypeFont) -> list[tuple[str, bool]]:
    """`text` cut into runs of characters that `font` has a glyph for, and runs it has none for (drawn as its
    .notdef box, the same bitmap as a private-use character's)."""
    runs: list[tuple[str, bool]] = []
    for character in text:
        has_glyph = character.isspace() or _has_glyph(str(font.path), round(font.size), character)
        if runs and runs[-1][1] == has_glyph:
            runs[-1] = (runs[-1][0] + character, has_glyph)
        else:
            runs.append((character, has_glyph))
    return runs


@lru_cache(maxsize=8)
def _face(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=20_000)
def _has_glyph(path: str, size: int, character: str) -> bool:
    face = _face(path, size)
    return bytes(face.getmask(character)) != bytes(face.getmask("\ue000"))


def render_columns(left: list[str], right: list[str], *, dpi: int = 300, points: float = 12) -> Image.Image:
    """An A4 page of English in two columns (a half-inch gutter), `left` then `right`."""
    width, height = round(A4_INCHES[0] * dpi), round(A4_INCHES[1] * dpi)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(LATIN_FONT), round(points / 72 * dpi))
    line_height = round(points * 1.5 / 72 * dpi)
    column = (width - 2 * dpi - dpi // 2) // 2
    for x, paragraphs in ((dpi, left), (dpi + column + dpi // 2, right)):
        y = dpi
        for paragraph in paragraphs:
            for line in _wrap(paragraph, font, column, "eng"):
                draw.text((x, y), line, font=font, fill=0)
                y += line_height
            y += line_height
    return page


def render_table_page(
    before: str, grid: list[list[str]], after: str, language: str = "eng", *, dpi: int = 300, points: float = 12
) -> Image.Image:
    """An A4 page: a paragraph, a table ruled on every row and column holding `grid`, and another paragraph."""
    width, height = round(A4_INCHES[0] * dpi), round(A4_INCHES[1] * dpi)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(font_path(language)), round(points / 72 * dpi))
    line_height = round(points * 1.5 / 72 * dpi)
    _draw_with_fallback(draw, (dpi, dpi), before, font)
    top, row_height = dpi + 3 * line_height, 2 * line_height
    column = (width - 2 * dpi) // len(grid[0])
    for row, cells in enumerate(grid):
        for col, text in enumerate(cells):
            at = (dpi + col * column + line_height // 2, top + row * row_height + line_height // 2)
            _draw_with_fallback(draw, at, text, font)
    bottom = top + len(grid) * row_height
    for row in range(len(grid) + 1):
        draw.line([(dpi, top + row * row_height), (width - dpi, top + row * row_height)], fill=0, width=3)
    for col in range(len(grid[0]) + 1):
        draw.line([(dpi + col * column, top), (dpi + col * column, bottom)], fill=0, width=3)
    _draw_with_fallback(draw, (dpi, bottom + 2 * line_height), after, font)
    return page


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: int, language: str) -> list[str]:
    units = text.split(" ") if language == "eng" else list(text)
    joiner = " " if language == "eng" else ""
    lines: list[str] = []
    current = ""
    for unit in units:
        candidate = f"{current}{joiner}{unit}" if current else unit
        if current and font.getlength(candidate) > width:
            lines.append(current)
            candidate = unit
        current = candidate
    return [*lines, current] if current else lines


def degrade(page: Image.Image, *, seed: int = 7) -> Image.Image:
    """A worn photocopy: turned by 1 degree, blurred, and speckled with Gaussian noise."""
    turned = page.rotate(1.0, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    blurred = np.asarray(turned.filter(ImageFilter.GaussianBlur(1.0)), dtype=np.float32)
    noisy = blurred + np.random.default_rng(seed).normal(0, 20, blurred.shape)
    return Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))


def encode(pages: list[Image.Image], fmt: str, *, dpi: int = 300) -> bytes:
    """The pages as one file: `png` or `jpeg` (one page), `tiff` (multi-page, compressed) or `pdf` (image-only)."""
    buffer = io.BytesIO()
    # Copies: Pillow keeps a save's encoder settings on the image, and a later multi-page save then passes an
    # appended page's old PNG settings to the TIFF encoder.
    first, *rest = (page.copy() for page in pages)
    if fmt == "tiff":
        first.save(buffer, "TIFF", save_all=True, append_images=rest, compression="tiff_deflate", dpi=(dpi, dpi))
    elif fmt == "pdf":
        first.save(buffer, "PDF", save_all=True, append_images=rest, resolution=dpi)
    else:
        first.save(buffer, fmt.upper(), dpi=(dpi, dpi))
    return buffer.getvalue()


def normalise(text: str) -> str:
    """NFKC, whitespace runs as one space, and no space next to a Han or kana character (OCR puts them there)."""
    text = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()
    kept = [
        char
        for index, char in enumerate(text)
        if char != " " or not (no_space_script(text[index - 1]) or no_space_script(text[index + 1]))
    ]
    return "".join(kept)


def character_error_rate(reference: str, recognised: str) -> float:
    expected, got = normalise(reference), normalise(recognised)
    return edit_distance(expected, got, len(expected) + len(got)) / max(1, len(expected))
