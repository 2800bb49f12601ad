#!/usr/bin/env python3
"""Write the example documents `make demo` ingests: one fictional company's files in seven formats."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

MANUAL_PAGES = [
    (
        "1 Overview",
        [
            "The TX-100 is a stainless steel ball valve for water and light oil lines. It is rated for a "
            "working pressure of 200 bar and temperatures from -20 °C to 120 °C.",
            "This manual covers installation, maintenance and troubleshooting. Read the safety notes in "
            "section 2 before working on a pressurised line.",
        ],
    ),
    (
        "2 Installation",
        [
            "Depressurise the line and drain it before fitting the valve. Use the supplied PTFE gaskets; "
            "tighten the flange bolts crosswise to 45 Nm.",
            "2.1 Safety notes",
            "Never open the valve body under pressure. Wear eye protection when flushing the line.",
        ],
    ),
    (
        "3 Maintenance",
        [
            "Replace the stem seal every 6 months or after 10,000 cycles, whichever comes first. The seal "
            "kit part number is SK-100-B.",
            "Lubricate the stem with food-grade silicone grease at every seal change.",
        ],
    ),
]

TORQUE_TABLE = [
    ["Bolt size", "Torque (Nm)", "Pattern"],
    ["M10", "45", "crosswise"],
    ["M12", "80", "crosswise"],
    ["M16", "190", "crosswise, two passes"],
]

PRICES = [
    ("TX-100", "Ball valve DN25", 189.00, 12),
    ("TX-200", "Ball valve DN50", 329.00, 7),
    ("SK-100-B", "Stem seal kit for TX-100", 24.50, 140),
    ("GR-5", "Silicone grease 50 g", 8.90, 300),
]

FAQ_HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Acme Valves support FAQ</title>
<script>trackVisitor();</script><style>body{font-family:sans-serif}</style></head>
<body><nav><a href="/">Home</a> | <a href="/shop">Shop</a></nav>
<h1>Support FAQ</h1>
<h2>Returns</h2>
<p>Unused products can be returned within 30 days of delivery for a full refund.</p>
<p>Open a return at support@acme-valves.example with your order number.</p>
<h2>Warranty</h2>
<p>All valves carry a 2-year warranty against manufacturing defects. Seals are wear parts and are not covered.</p>
<table><tr><th>Product</th><th>Warranty</th></tr>
<tr><td>TX-100</td><td>2 years</td></tr><tr><td>TX-200</td><td>3 years</td></tr></table>
<footer>© Acme Valves</footer></body></html>
"""

RELEASE_NOTES_MD = """# Valve configurator release notes

## Version 2.3.1

- Fixed the DN50 flange drawing export.
- The TX-200 now shows its pressure rating of 160 bar.

## Version 2.3.0

- Added metric and imperial unit switching.
- Exports drawings as PDF and DXF.

| Version | Date | Status |
|---|---|---|
| 2.3.1 | 2026-05-04 | current |
| 2.3.0 | 2026-03-18 | supported |
"""

POLICY_ZH = """第一章 总则

本政策适用于阿克米阀门公司的全部员工。

第二章 休假

新员工入职第一年享有十天带薪年假，之后每年增加一天，最多二十天。

第三章 报销

差旅费用须在出差结束后十五天内提交报销申请。
"""


def write_manual_pdf(path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table

    styles = getSampleStyleSheet()
    story: list[object] = [Paragraph("TX-100 Valve Manual", styles["Title"])]
    for number, (title, paragraphs) in enumerate(MANUAL_PAGES):
        if number:
            story.append(PageBreak())
        story.append(Paragraph(title, styles["Heading1"]))
        for text in paragraphs:
            style = styles["Heading2"] if text[:4].replace(".", "").isdigit() else styles["BodyText"]
            story.append(Paragraph(text, style))
            story.append(Spacer(1, 6))
        if title.startswith("2"):
            story.append(Table(TORQUE_TABLE))
    SimpleDocTemplate(str(path), pagesize=A4, title="TX-100 Valve Manual").build(story)


def write_policy_docx(path: Path) -> None:
    from docx import Document

    document = Document()
    document.add_heading("Employee handbook", level=1)
    document.add_heading("Vacation", level=2)
    document.add_paragraph(
        "New employees get 25 vacation days per year. Unused days carry over until 31 March of the next year."
    )
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Years of service", "Vacation days"
    for years, days in (("0-4", "25"), ("5-9", "27"), ("10+", "30")):
        row = table.add_row().cells
        row[0].text, row[1].text = years, days
    document.add_heading("Remote work", level=2)
    document.add_paragraph("Staff may work remotely up to three days a week after agreeing it with their manager.")
    document.save(str(path))


def write_prices_xlsx(path: Path) -> None:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Price list 2026"
    sheet.append(["Part number", "Description", "Price (EUR)", "In stock"])
    for row in PRICES:
        sheet.append(list(row))
    workbook.save(str(path))


def tickets_csv() -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["ticket", "product", "issue", "resolution"])
    writer.writerow(
        ["T-1001", "TX-100", "Valve leaks at the stem, 8 months after install", "Replaced seal kit SK-100-B"]
    )
    writer.writerow(["T-1002", "TX-200", "Handle stiff in cold weather", "Lubricated stem with GR-5"])
    writer.writerow(["T-1003", "Configurator", "DXF export fails for DN50, version 2.3.0", "Fixed in 2.3.1"])
    return buffer.getvalue()


def main(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    write_manual_pdf(target / "tx-100-manual.pdf")
    write_policy_docx(target / "employee-handbook.docx")
    write_prices_xlsx(target / "price-list.xlsx")
    (target / "support-faq.html").write_text(FAQ_HTML, encoding="utf-8")
    (target / "release-notes.md").write_text(RELEASE_NOTES_MD, encoding="utf-8")
    (target / "support-tickets.csv").write_text(tickets_csv(), encoding="utf-8")
    (target / "hr-policy-zh.txt").write_text(POLICY_ZH, encoding="utf-8")
    print(f"wrote {len(list(target.iterdir()))} example documents to {target}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "examples/docs"))
