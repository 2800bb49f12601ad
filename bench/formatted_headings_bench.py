#!/usr/bin/env python3
"""Headings made by formatting alone (DOCX): how many does the parser find, at their levels, and how many lines that
were never headings does it take for one?

    .venv/bin/python -m bench.formatted_headings_bench [--source DIR] [FILE.docx ...]

The documents are DOCX files whose headings have heading styles: the corpus' own, and LibreOffice's DOCX of its ODT,
RTF and HTML files (when `soffice` is installed), or the files given. Each is rewritten as a user who formats
headings by hand writes it: every heading paragraph loses its style (and outline level, and the style's numbering)
and its runs get the bold and the size the style gave them, directly; LibreOffice saves each rewritten file as ODT,
RTF, HTML and Word 97 `.doc` too, and its HTML is written once more with the formatting in classes of a `<style>`
sheet (as Google Docs exports it: `<span class="c2">`, `.c2{font-weight:700}`). Every rewritten file is parsed and
its headings compared with the original's (texts without their numbers): found, at a level that keeps the original's
order of levels between consecutive found headings, and headings that were not. The originals' heading counts show
what a tree adds to documents with styles. `--source` names another tree's layers/docshelf, measured the same way in
the same run.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from itertools import pairwise
from pathlib import Path

from lxml import etree

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_LABEL = re.compile(r"^(?:[\dIVXivx]+[.)]?)+(?:[.\s]+\d+)*[.)]?\s+")


def w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


def corpus_documents(folder: Path) -> list[Path]:
    """The corpus' DOCX files and LibreOffice's DOCX of its ODT, RTF and HTML files."""
    files = [path for path in sorted((CORPUS / "docx").glob("*.docx")) if zipfile.is_zipfile(path)]
    soffice = shutil.which("soffice")
    sources = [p for kind in ("odt", "rtf", "html") for p in sorted((CORPUS / kind).glob(f"*.{kind}"))]
    if soffice is None:
        print("LibreOffice (soffice) is not installed: the corpus' own DOCX files only", file=sys.stderr)
        return files
    subprocess.run(
        [soffice, "--headless", "--convert-to", "docx:MS Word 2007 XML", "--outdir", str(folder), *map(str, sources)],
        check=False, capture_output=True, timeout=600,
    )  # fmt: skip
    return files + sorted(folder.glob("*.docx"))


def hand_formatted(data: bytes) -> bytes:
    """The DOCX with its heading paragraphs in the body style, set bold and sized by hand as their styles set them."""
    from docshelf.parsers.office.docx_styles import StyleSheet, outline_level

    with zipfile.ZipFile(io.BytesIO(data)) as package:
        parts = {name: package.read(name) for name in package.namelist()}
    styles_xml = parts.get("word/styles.xml")
    sheet = StyleSheet(etree.fromstring(styles_xml) if styles_xml else None)
    document = etree.fromstring(parts["word/document.xml"])
    for paragraph in document.iter(w("p")):
        ppr = paragraph.find(w("pPr"))
        style = ppr.find(w("pStyle")) if ppr is not None else None
        style_id = style.get(w("val")) if style is not None else None
        direct = outline_level(ppr)
        if not (sheet.heading_level(style_id) is not None or (direct is not None and direct >= 0)):
            continue
        for run in paragraph.iter(w("r")):
            rpr = run.find(w("rPr"))
            bold, size = sheet.run_bold_and_size(rpr, style_id)
            if rpr is None:
                rpr = etree.Element(w("rPr"))
                run.insert(0, rpr)
            for tag in ("rStyle", "b", "sz"):
                for old in rpr.findall(w(tag)):
                    rpr.remove(old)
            if bold:
                etree.SubElement(rpr, w("b"))
            etree.SubElement(rpr, w("sz")).set(w("val"), str(round(size * 2)))
        assert ppr is not None
        for tag in ("pStyle", "outlineLvl", "numPr"):
            for old in ppr.findall(w(tag)):
                ppr.remove(old)
    parts["word/document.xml"] = etree.tostring(document, xml_declaration=True, encoding="UTF-8", standalone=True)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, content in parts.items():
            package.writestr(name, content)
    return out.getvalue()


def headings(data: bytes, name: str) -> list[tuple[str, int]]:
    from docshelf.model import Heading
    from docshelf.parsers import parse_bytes

    return [
        (_plain(block.text), block.level)
        for block in parse_bytes(data, name).blocks()
        if isinstance(block, Heading) and _plain(block.text)
    ]


def _plain(text: str) -> str:
    return " ".join(_LABEL.sub("", text.strip()).split()).casefold()


def rewrite_all(files: list[str], folder: Path) -> list[str]:
    """`ORIGINAL::REWRITTEN` for each file, the rewritten copy written into `folder` (by this tree's code, so that
    every tree measured reads the same files)."""
    pairs = []
    for number, name in enumerate(files):
        rewritten = folder / f"{number}-{Path(name).name}"
        rewritten.write_bytes(hand_formatted(Path(name).read_bytes()))
        pairs.append(f"{name}::{rewritten}")
    return pairs


def converted(pairs: list[str], kind: str, folder: Path) -> list[str]:
    """The pairs with each rewritten DOCX replaced by LibreOffice's `kind` file of it (pairs it could not convert
    are left out)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        return []
    rewritten = [pair.split("::")[1] for pair in pairs]
    subprocess.run(
        [soffice, "--headless", "--convert-to", kind, "--outdir", str(folder), *rewritten],
        check=False, capture_output=True, timeout=600,
    )  # fmt: skip
    found = []
    for pair in pairs:
        original, docx_file = pair.split("::")
        target = folder / f"{Path(docx_file).stem}.{kind}"
        if target.exists():
            found.append(f"{original}::{target}")
    return found


def styled_by_classes(data: bytes) -> bytes:
    """An HTML page with each element's formatting (`<b>`, `<strong>`, `<font size>`, a `style`) moved into a class
    of the page's style sheet, the elements turned into spans."""
    from lxml import html as lxml_html

    root = lxml_html.fromstring(data)
    classes: dict[str, str] = {}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        declarations = []
        if element.tag in ("b", "strong"):
            declarations.append("font-weight:700")
            element.tag = "span"
        elif element.tag == "font" and "size" in element.attrib:
            size = str(element.attrib.pop("size")).strip()
            declarations.append(f"font-size:{_FONT_KEYWORDS.get(size, 'medium')}")
            element.tag = "span"
        if "style" in element.attrib:  # after the tag's: a style wins
            declarations.append(str(element.attrib.pop("style")))
        if declarations:
            name = classes.setdefault(";".join(declarations), f"c{len(classes)}")
            element.set("class", " ".join([*str(element.get("class", "")).split(), name]))
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    style = etree.SubElement(head, "style")
    style.text = "".join(f".{name}{{{declarations}}}" for declarations, name in classes.items())
    return bytes(lxml_html.tostring(root, encoding="utf-8"))


_FONT_KEYWORDS = {
    "1": "x-small",
    "2": "small",
    "3": "medium",
    "4": "large",
    "5": "x-large",
    "6": "xx-large",
    "7": "xxx-large",
}


def by_classes(pairs: list[str], folder: Path) -> list[str]:
    found = []
    for pair in pairs:
        original, page = pair.split("::")
        target = folder / Path(page).name
        target.write_bytes(styled_by_classes(Path(page).read_bytes()))
        found.append(f"{original}::{target}")
    return found


def measure(pairs: list[str]) -> dict[str, float]:
    """Totals over the files: headings of the originals, found again in the rewritten files, at consistent levels,
    and false ones there."""
    from docshelf.errors import DocumentError

    totals = dict.fromkeys(("files", "headings", "found", "level_pairs", "levels_kept", "false", "unreadable"), 0.0)
    for pair in pairs:
        name, rewritten_name = pair.split("::")
        original = headings(Path(name).read_bytes(), Path(name).name)
        totals["files"] += 1
        totals["headings"] += len(original)
        if not original:
            continue
        try:
            rewritten = headings(Path(rewritten_name).read_bytes(), Path(rewritten_name).name)
        except DocumentError:  # every heading of it missed
            totals["unreadable"] += 1
            rewritten = []
        truth = Counter(text for text, _ in original)
        level_of = dict(original)
        found = [(text, level) for text, level in rewritten if text in truth]
        totals["found"] += sum((Counter(text for text, _ in found) & truth).values())
        totals["false"] += sum(1 for text, _ in rewritten if text not in truth)
        for (a, level_a), (b, level_b) in pairwise(found):
            totals["level_pairs"] += 1
            original_step = (level_of[b] > level_of[a]) - (level_of[b] < level_of[a])
            totals["levels_kept"] += original_step == (level_b > level_a) - (level_b < level_a)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--source", help="another tree's layers/docshelf, measured in the same run")
    parser.add_argument("--json", action="store_true", help="FILES are ORIGINAL::REWRITTEN pairs: print their totals")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.files)))
        return
    if not args.files and not CORPUS.is_dir():
        print("| formatted headings | skipped | ../shared/corpus is absent |")
        return
    with tempfile.TemporaryDirectory() as folder:
        files = args.files or [str(path) for path in corpus_documents(Path(folder))]
        rewritten = Path(folder) / "by-hand"
        rewritten.mkdir()
        by_kind = {"docx": rewrite_all(files, rewritten)}
        for kind in ("odt", "rtf", "html", "doc"):
            (Path(folder) / kind).mkdir()
            by_kind[kind] = converted(by_kind["docx"], kind, Path(folder) / kind)
        (Path(folder) / "classes").mkdir()
        by_kind["HTML by classes"] = by_classes(by_kind["html"], Path(folder) / "classes")
        rows = []
        for kind, pairs in by_kind.items():
            if args.source:
                done = subprocess.run(
                    [sys.executable, "-m", "bench.formatted_headings_bench", "--json", *pairs],
                    env={"PYTHONPATH": f"{args.source}:{REPO}", "PATH": "/usr/bin:/bin"},
                    cwd=REPO, check=False, capture_output=True, text=True,
                )  # fmt: skip
                if done.returncode != 0:
                    raise SystemExit(f"{args.source} failed on the {kind} files:\n{done.stderr[-3000:]}")
                rows.append((kind, args.source, json.loads(done.stdout)))
            rows.append((kind, "this tree", measure(pairs)))
    print(
        "| set by hand as | tree | files | headings of the originals | found when set by hand | levels in order "
        "| false headings | files it could not read |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for kind, tree, totals in rows:
        share = totals["found"] / totals["headings"] if totals["headings"] else 0.0
        kept = totals["levels_kept"] / totals["level_pairs"] if totals["level_pairs"] else 0.0
        print(
            f"| {kind} | {tree} | {totals['files']:.0f} | {totals['headings']:.0f} | "
            f"{totals['found']:.0f} ({share:.3f}) | {kept:.3f} | {totals['false']:.0f} | {totals['unreadable']:.0f} |"
        )


if __name__ == "__main__":
    main()
