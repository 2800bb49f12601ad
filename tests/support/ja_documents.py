"""Japanese documents of the kinds a Japanese team drops, generated: a 社内規程 (work rules) as DOCX with and without
heading styles and as plain text, a Shift_JIS notice as HTML, text and CSV, an .xlsx with Japanese sheet names, and
an IT guide whose section titles share single katakana with a product name. bench/quality_bench.py's `ja_docs` set
asks bench/ja_docs_questions.jsonl of them."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

RULES_TITLE = "就業規則"
COMPANY = "株式会社みなと精機"
# The introducing sentence of the paid-leave table: a table chunk must carry it.
LEAVE_TABLE_INTRO = "年次有給休暇は、勤続年数に応じて、次の表のとおり付与する。"
LEAVE_TABLE = [
    ["勤続年数", "付与日数"],
    ["6か月", "10日"],
    ["1年6か月", "11日"],
    ["2年6か月", "12日"],
    ["3年6か月", "14日"],
    ["4年6か月", "16日"],
    ["5年6か月", "18日"],
    ["6年6か月以上", "20日"],
]
SPECIAL_LEAVE_INTRO = "従業員が次の事由に該当するときは、下表の日数の特別休暇を与える。"
SPECIAL_LEAVE_TABLE = [
    ["事由", "日数"],
    ["本人の結婚", "5日"],
    ["配偶者の出産", "2日"],
    ["父母・配偶者・子の死亡", "5日"],
    ["祖父母・兄弟姉妹の死亡", "2日"],
]


@dataclass(frozen=True)
class RulesBlock:
    """One line of the rules: a heading (`level` 1-3) or body text, or a table (`rows`)."""

    text: str = ""
    level: int = 0
    rows: tuple[tuple[str, ...], ...] = ()


def _table(rows: list[list[str]]) -> RulesBlock:
    return RulesBlock(rows=tuple(tuple(row) for row in rows))


# 5 chapters (第N章), 11 articles (第N条, the last two with full-width numbers) and 3 dotted sub-items (１．１).
RULES: tuple[RulesBlock, ...] = (
    RulesBlock("第1章 総則", 1),
    RulesBlock("第1条（目的）", 2),
    RulesBlock(
        f"この規則は、{COMPANY}（以下「会社」という。）の従業員の労働条件、服務規律その他の就業に関する事項を定めるものである。"
    ),
    RulesBlock("第2条（適用範囲）", 2),
    RulesBlock(
        "この規則は、会社に雇用されるすべての従業員に適用する。ただし、パートタイム従業員の就業に関し必要な事項は、別に定める。"
    ),
    RulesBlock("第3条（規則の遵守）", 2),
    RulesBlock("会社及び従業員は、この規則を遵守し、相互に協力して社業の発展と労働条件の向上に努めなければならない。"),
    RulesBlock("第2章 勤務", 1),
    RulesBlock("第4条（労働時間）", 2),
    RulesBlock("労働時間は、次のとおりとする。"),
    RulesBlock("１．１ 所定労働時間", 3),
    RulesBlock("所定労働時間は、休憩時間を除き、1日7時間45分、1週38時間45分とする。"),
    RulesBlock("１．２ 始業及び終業の時刻", 3),
    RulesBlock(
        "始業時刻は午前8時30分、終業時刻は午後5時15分とする。業務の都合により、これを繰り上げ又は繰り下げることがある。"
    ),
    RulesBlock("１．３ 休憩時間", 3),
    RulesBlock("休憩時間は、正午から午後1時までの60分とし、従業員は自由に利用することができる。"),
    RulesBlock("第5条（休日）", 2),
    RulesBlock("休日は、土曜日、日曜日、国民の祝日及び年末年始（12月29日から翌年1月3日まで）とする。"),
    RulesBlock("第3章 休暇", 1),
    RulesBlock("第6条（年次有給休暇）", 2),
    RulesBlock(LEAVE_TABLE_INTRO),
    _table(LEAVE_TABLE),
    RulesBlock(
        "年次有給休暇を取得しようとする者は、原則として3日前までに、所定の様式により所属長に届け出なければならない。"
    ),
    RulesBlock("第7条（特別休暇）", 2),
    RulesBlock(SPECIAL_LEAVE_INTRO),
    _table(SPECIAL_LEAVE_TABLE),
    RulesBlock("第4章 服務規律", 1),
    RulesBlock("第8条（服務の基本原則）", 2),
    RulesBlock("従業員は、会社の指示命令に従い、職務上の責任を自覚し、誠実に職務を遂行しなければならない。"),
    RulesBlock("第9条（遵守事項）", 2),
    RulesBlock("従業員は、次の事項を守らなければならない。"),
    RulesBlock("(1) 会社の名誉や信用を損なう行為をしないこと。"),
    RulesBlock("(2) 在職中及び退職後において、業務上知り得た機密を漏らさないこと。"),
    RulesBlock("(3) 会社の許可なく、他の会社の業務に従事しないこと。"),
    RulesBlock("第5章 懲戒", 1),
    RulesBlock("第１０条（懲戒）", 2),
    RulesBlock("従業員が第9条に定める事項に違反したときは、その情状に応じ、次条に定める懲戒を行う。"),
    RulesBlock("第１１条（懲戒の種類）", 2),
    RulesBlock(
        "懲戒は、けん責、減給、出勤停止及び懲戒解雇の4種類とし、減給の額は1回につき平均賃金の1日分の半額を超えないものとする。"
    ),
)
RULES_HEADINGS = [(block.text, block.level) for block in RULES if block.level]


def rules_docx(*, styled: bool) -> bytes:
    """The work rules as Word writes them: heading lines in Heading 1-3 (`styled`) or in the body style."""
    import docx

    document = docx.Document()
    document.core_properties.title = RULES_TITLE
    document.add_paragraph(RULES_TITLE, style="Title" if styled else None)
    for block in RULES:
        if block.rows:
            table = document.add_table(rows=len(block.rows), cols=len(block.rows[0]))
            table.style = "Table Grid"
            for row, values in zip(table.rows, block.rows, strict=True):
                for cell, value in zip(row.cells, values, strict=True):
                    cell.text = value
        elif block.level and styled:
            document.add_heading(block.text, level=block.level)
        else:
            document.add_paragraph(block.text)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def rules_docx_numbered() -> bytes:
    """The work rules as a Word template numbers them: chapters and articles in a multilevel list whose labels are
    `第%1章` and `第%2条` (the paragraph holds `総則`, `（目的）`), no heading styles."""
    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    namespace = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    levels = "".join(
        f'<w:lvl w:ilvl="{level}"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        f'<w:lvlText w:val="{text}"/>{restart}</w:lvl>'
        for level, text, restart in ((0, "第%1章", ""), (1, "第%2条", '<w:lvlRestart w:val="0"/>'))
    )
    numbering = document.part.numbering_part.element
    numbering.insert(0, parse_xml(f'<w:abstractNum {namespace} w:abstractNumId="90">{levels}</w:abstractNum>'))
    numbering.append(parse_xml(f'<w:num {namespace} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    for block in RULES:
        if block.rows:
            table = document.add_table(rows=len(block.rows), cols=len(block.rows[0]))
            for row, values in zip(table.rows, block.rows, strict=True):
                for cell, value in zip(row.cells, values, strict=True):
                    cell.text = value
        elif block.level in (1, 2):
            title = block.text.split(" ", 1)[1] if block.level == 1 else block.text[block.text.index("（") :]
            paragraph = document.add_paragraph(title)
            properties = paragraph._p.get_or_add_pPr()
            properties.append(
                parse_xml(f'<w:numPr {namespace}><w:ilvl w:val="{block.level - 1}"/><w:numId w:val="90"/></w:numPr>')
            )
        else:
            document.add_paragraph(block.text)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def rules_text() -> str:
    """The work rules as a plain-text file: one line each, a blank line between articles, tables as tab rows."""
    lines = [RULES_TITLE, ""]
    for block in RULES:
        if block.rows:
            lines.extend("\t".join(row) for row in block.rows)
        elif block.level == 2:
            lines.extend(["", block.text])
        elif block.level == 1:
            lines.extend(["", block.text, ""])
        else:
            lines.append(block.text)
    return "\n".join(lines) + "\n"


def rules_html(*, headings: bool) -> str:
    """The work rules as an intranet page: the heading lines in <h1>-<h3> or in <p>."""
    parts = [f"<html><head><meta charset='utf-8'><title>{RULES_TITLE}</title></head><body>"]
    for block in RULES:
        if block.rows:
            rows = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in block.rows)
            parts.append(f"<table border='1'>{rows}</table>")
        elif block.level and headings:
            parts.append(f"<h{block.level + 1}>{block.text}</h{block.level + 1}>")
        else:
            parts.append(f"<p>{block.text}</p>")
    return "".join(parts) + "</body></html>"


# A notice in Shift_JIS naming the attendance system キンタイ君 and people whose names need cp932 (髙, 﨑) and a
# wave dash that Shift_JIS proper reads otherwise (～).
NOTICE_TITLE = "勤怠管理システム導入のお知らせ"
NOTICE_LINES = (
    "総務部より、勤怠管理システム「キンタイ君」の導入についてお知らせします。",
    "4月1日から、出勤・退勤の打刻はすべてキンタイ君で行ってください。紙のタイムカードは3月末で廃止します。",
    "問い合わせ受付時間は平日9:00～17:00です。担当は総務部の髙橋（内線3305）と山﨑（内線3306）です。",
)


def notice_html() -> bytes:
    body = "".join(f"<p>{line}</p>" for line in NOTICE_LINES)
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
        f"<title>{NOTICE_TITLE}</title></head><body><h1>{NOTICE_TITLE}</h1>{body}</body></html>"
    )
    return page.encode("cp932")


def notice_text() -> bytes:
    """A short Shift_JIS memo: too short for a statistical detector to tell Japanese from Chinese bytes."""
    return "キンタイ君の打刻漏れは髙橋まで連絡してください。\r\n".encode("cp932")


STAFF_ROWS = (
    ("氏名", "部署", "内線", "備考"),
    ("髙橋 一郎", "総務部", "3305", "勤怠システム担当"),
    ("山﨑 花子", "総務部", "3306", "受付 9:00～17:00"),
    ("渡邊 健太", "製造部", "4102", "TX-100 保守担当"),
    ("齋藤 美咲", "品質保証部", "4210", "検査記録の管理"),
)


def staff_csv() -> bytes:
    return "".join(",".join(row) + "\r\n" for row in STAFF_ROWS).encode("cp932")


EQUIPMENT_SHEETS = {
    "設備一覧": [
        ["設備番号", "名称", "設置場所", "導入年"],
        ["ＴＸ－１００", "卓上型圧着機", "第2工場", "2019"],
        ["ＴＸ－２００", "全自動圧着機", "第2工場", "2022"],
        ["ＫＭ－５０", "ｿｹｯﾄ検査治具", "品質保証室", "2021"],
    ],
    "保守履歴": [
        ["日付", "設備番号", "内容", "担当"],
        ["2024-03-12", "ＴＸ－１００", "ブレード交換（４５時間稼働ごと）", "渡邊"],
        ["2024-05-20", "ＫＭ－５０", "ｿｹｯﾄ接点の清掃", "齋藤"],
    ],
}


def equipment_xlsx() -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in EQUIPMENT_SHEETS.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# An IT guide whose section titles share single katakana (ワンタイム, タイムアウト) with キンタイ君.
IT_GUIDE = """# 情報システム利用ガイド

このガイドは、社内の情報システムを安全に利用するための基本的な手順をまとめたものです。新しく入社した方は、
業務を始める前に必ず全体に目を通してください。内容は毎年4月に見直し、変更があった場合は社内ポータルでお知らせします。
不明な点は情報システム部のヘルプデスクに問い合わせてください。ヘルプデスクの受付時間は平日の午前9時から午後6時までです。

## ワンタイムパスワードの設定

社外から社内システムに接続するときは、スマートフォンのアプリで表示される6桁のワンタイムパスワードを入力します。
パスワードは30秒ごとに変わります。アプリは情報システム部が配布する手順書に従って、初回ログインの前に登録してください。
スマートフォンを紛失したときや機種を変更したときは、速やかに情報システム部へ連絡し、登録を解除してください。
登録の解除が済むまでは、社外からの接続はできません。

## セッションのタイムアウト

操作のない状態が15分続くと、セッションは自動的に切断されます。作業中のデータはこまめに保存してください。
切断されたあとは、もう一度ログインし直す必要があります。長時間の会議などで席を離れるときは、画面をロックしてください。
共用端末では、作業が終わったら必ずログアウトしてください。

## 社内ポータル

各種申請、社内報、規程集は社内ポータルから参照できます。ポータルのアカウントは入社時に発行されます。
"""


# Another rule book of the same office, about leave too: what a search for paid leave must see past.
CARE_LEAVE_RULES = (
    "育児・介護休業規程",
    "第1条（目的）",
    "この規程は、従業員の育児休業、介護休業、子の看護休暇及び介護休暇に関する取扱いについて定めるものである。",
    "第2条（育児休業）",
    "1歳に満たない子と同居し、養育する従業員は、申出により、子が1歳に達する日までの間で申し出た期間、育児休業をすることができる。",
    "第3条（子の看護休暇）",
    "小学校就学前の子を養育する従業員は、1年間につき5日、子が2人以上の場合は10日を限度として、子の看護休暇を取得することができる。",
    "子の看護休暇は無給とする。ただし、従業員は子の看護休暇に代えて年次有給休暇を取得することができる。",
    "第4条（介護休暇）",
    "要介護状態にある家族の介護その他の世話をする従業員は、1年間につき5日、対象家族が2人以上の場合は10日を限度として、介護休暇を取得することができる。",
    "第5条（申出の手続）",
    "休業又は休暇を取得しようとする者は、原則として休業開始予定日の1か月前までに、所定の申出書を人事部に提出しなければならない。",
)


def care_leave_docx() -> bytes:
    """The care-leave rules with no heading styles, as a second rule book."""
    import docx

    document = docx.Document()
    for line in CARE_LEAVE_RULES:
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def write_documents(folder: Path) -> list[Path]:
    """Every document above, written to `folder`; their paths."""
    files = {
        "就業規則_見出しなし.docx": rules_docx(styled=False),
        "就業規則_見出しあり.docx": rules_docx(styled=True),
        "就業規則.txt": rules_text().encode("utf-8"),
        "勤怠システム導入のお知らせ.html": notice_html(),
        "打刻漏れメモ.txt": notice_text(),
        "社員名簿.csv": staff_csv(),
        "設備台帳.xlsx": equipment_xlsx(),
        "情報システム利用ガイド.md": IT_GUIDE.encode("utf-8"),
        "育児介護休業規程.docx": care_leave_docx(),
    }
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in files.items():
        path = folder / name
        path.write_bytes(data)
        paths.append(path)
    return paths
