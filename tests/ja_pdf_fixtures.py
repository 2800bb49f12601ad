"""Japanese PDFs as Word exports them, generated with reportlab and the tests' CJK font (fetched by `make setup`):
a 社内規程 whose 第N章 / 第N条 lines are in the body font, and a manual with an unruled torque table, runs of Latin
and Japanese text set in two fonts side by side, and a ruled table whose cell switches font inside a word."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

CJK_FONT = Path(__file__).resolve().parent / "fonts" / "DroidSansFallbackFull.ttf"
WIDTH, HEIGHT = A4
BODY = 10.5

KITEI = [
    ("第1章 総則", None),
    ("第1条（目的）", None),
    ("この規則は、株式会社アクメ（以下「会社」という。）の従業員の就業に関する事項を定める。", None),
    ("第2条（適用範囲）", None),
    ("この規則は、会社に雇用される全ての従業員に適用する。ただし、嘱託社員については別に定める。", None),
    ("第2章 勤務", None),
    ("第3条（所定労働時間）", None),
    ("所定労働時間は、休憩時間を除き１日８時間、１週４０時間とする。始業及び終業の時刻は次のとおりとする。", None),
    ("第4条（休日）", None),
    ("休日は土曜日及び日曜日とする。業務の都合により会社が必要と認める場合は、", "第3条に定める所定労働"),
]

TORQUE_HEADER = ["ボルト径", "規定トルク値", "許容差"]
TORQUE_ROWS = [["M8", "25 N・m", "±10%"], ["M10", "45 N・m", "±10%"], ["M12", "80 N・m", "±10%"]]


def require_cjk_font() -> None:
    """Skip without the CJK test font (`make setup` fetches it); in CI, where setup ran, fail instead."""
    if CJK_FONT.is_file():
        return
    reason = "the CJK test font is missing; run `make setup` (infra/fetch_ocr_data.py --fonts)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


def register_cjk_fonts() -> None:
    """The one CJK font registered twice: reportlab embeds two subsets, so the PDF holds two fonts, as a Word file
    sets its Latin and Japanese runs in two."""
    for name in ("JaMincho", "JaGothic"):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(CJK_FONT)))


def _script_runs(text: str, font: str) -> list[tuple[str, str]]:
    """(text, font) runs: Latin (to U+00FF) in Helvetica, the rest in the Japanese font, as Word sets a mixed
    line."""
    runs: list[tuple[str, str]] = []
    for char in text:
        face = "Helvetica" if ord(char) <= 0xFF else font
        if runs and runs[-1][1] == face:
            runs[-1] = (runs[-1][0] + char, face)
        else:
            runs.append((char, face))
    return runs


def _mixed_width(text: str, font: str, size: float = BODY) -> float:
    runs = _script_runs(text, font)
    widths = [float(pdfmetrics.stringWidth(part, face, size)) for part, face in runs]
    return sum(widths) + (len(runs) - 1) * size / 4


def draw_mixed(pdf: canvas.Canvas, x: float, y: float, text: str, font: str = "JaMincho", size: float = BODY) -> None:
    """The text in script runs, a quarter em between a Latin and a Japanese run (Word's autospace, no space
    character)."""
    register_cjk_fonts()
    for part, face in _script_runs(text, font):
        pdf.setFont(face, size)
        pdf.drawString(x, y, part)
        x += pdfmetrics.stringWidth(part, face, size) + size / 4


def _wrapped(pdf: canvas.Canvas, text: str, y: float, width: float = WIDTH - 144) -> float:
    """Japanese body text broken into lines at the text width, as Word does (no spaces, no line starting with
    a closing mark), from y down."""
    line = ""
    for char in text:
        if _mixed_width(line + char, "JaMincho") > width and char not in "。、）」":
            draw_mixed(pdf, 72, y, line)
            y -= BODY * 1.5
            line = ""
        line += char
    if line:
        draw_mixed(pdf, 72, y, line)
        y -= BODY * 1.5
    return y


def kitei_pdf() -> bytes:
    """就業規則 without an outline: the title in a larger size, every 第N章 / 第N条 line in the body font."""
    register_cjk_fonts()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("JaGothic", 16)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 80, "就業規則")
    y = HEIGHT - 120
    for text, continuation in KITEI:
        y = _wrapped(pdf, text, y)
        if continuation is not None:  # a wrapped line that starts with a reference, not a title
            draw_mixed(pdf, 72, y, continuation + "時間を超えて勤務を命じることがある。")
            y -= BODY * 1.5
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def manual_pdf() -> bytes:
    """A page of a Japanese manual: mixed-script lines, an unruled table with close header cells, a ruled cell
    whose last character is set in another font a little higher."""
    register_cjk_fonts()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    y = HEIGHT - 90
    draw_mixed(pdf, 72, y, "M12ボルトは規定トルクで締め付けること。")  # `M12` in Helvetica, then a quarter em
    y -= BODY * 2
    draw_mixed(pdf, 72, y, "気温が０")  # `°C` in Helvetica between two Japanese runs
    after = 72 + _mixed_width("気温が０", "JaMincho") + BODY / 4
    draw_mixed(pdf, after, y, "°C以下のときは作業しないこと。", "JaGothic")
    y -= BODY * 3
    columns = (72, 72 + BODY * 5, 72 + BODY * 11)  # 規定トルク値 ends a fifth of an em before 許容差
    for text, column in zip(TORQUE_HEADER, columns, strict=True):
        draw_mixed(pdf, column, y, text, "JaGothic")
    for row in TORQUE_ROWS:
        y -= BODY * 1.8
        for text, column in zip(row, columns, strict=True):
            draw_mixed(pdf, column, y, text)
    y -= BODY * 4
    _ruled_cell_table(pdf, y)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _ruled_cell_table(pdf: canvas.Canvas, top: float) -> None:
    """A 3 x 2 grid; the cell `通信エラー` has its last character in the other font, 0.6 pt higher."""
    rows = [("コード", "内容"), ("E01", "通信エラー"), ("E02", "電源異常")]
    x0, x1, x2, pitch = 72.0, 172.0, 372.0, BODY * 2
    for index in range(len(rows) + 1):
        pdf.line(x0, top - index * pitch, x2, top - index * pitch)
    for x in (x0, x1, x2):
        pdf.line(x, top, x, top - len(rows) * pitch)
    for index, (code, text) in enumerate(rows):
        baseline = top - index * pitch - pitch + BODY * 0.6
        draw_mixed(pdf, x0 + 4, baseline, code)
        pdf.setFont("JaMincho", BODY)
        if text == "通信エラー":
            pdf.drawString(x1 + 4, baseline, "通信エラ")
            offset = pdfmetrics.stringWidth("通信エラ", "JaMincho", BODY)
            pdf.setFont("JaGothic", BODY)
            pdf.drawString(x1 + 4 + offset, baseline + 0.6, "ー")
        else:
            pdf.drawString(x1 + 4, baseline, text)
