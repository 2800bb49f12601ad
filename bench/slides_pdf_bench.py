#!/usr/bin/env python3
"""Slides saved as PDF: does each paragraph of the deck come back as one paragraph?

    python -m bench.slides_pdf_bench [--decks 12] [--seed 57] [--tree DIR]

Generates decks with python-pptx (a seeded mix of slide layouts, one text box a slide of random width and type size,
holding short points, one-line sentences and sentences that wrap, with no bullet and no gap between them: nothing
but where each line stops tells them apart), saves each as PDF with LibreOffice (`soffice`; a skip line when it is
absent), parses the PDFs and counts the deck's paragraphs that come back whole as a paragraph or heading, that
come back inside a longer one (run together with the next), or not whole at all (split). With `--tree`, the same
PDFs are also parsed by another checkout's code (its `layers/docshelf`, in a child interpreter) for a before/after
in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from bench.run import Row, print_table  # noqa: E402

TEXT = (
    "the pump station was inspected in march and its seals replaced while the board approved a plan for new "
    "reservoirs in the northern district costs fell in every quarter as the engineers tested each valve under load "
    "revenue grew with the number of households served and the water quality reports were published on time for "
    "the first year since the network was extended to the villages along the river"
)
WORDS = TEXT.split()


def phrase(rng: random.Random, low: int, high: int) -> str:
    count = rng.randint(low, high)
    start = rng.randint(0, len(WORDS) - count)
    text = " ".join(WORDS[start : start + count])
    return text[:1].upper() + text[1:]


def make_decks(folder: Path, decks: int, seed: int) -> list[tuple[Path, list[str]]]:
    """The decks written to `folder`, each with its paragraphs in order."""
    from pptx import Presentation
    from pptx.util import Inches, Pt

    rng = random.Random(seed)
    made = []
    for number in range(decks):
        presentation = Presentation()
        paragraphs: list[str] = []
        for _ in range(5):
            slide = presentation.slides.add_slide(presentation.slide_layouts[rng.choice([5, 6])])
            if slide.shapes.title is not None:
                slide.shapes.title.text = phrase(rng, 2, 6)
                paragraphs.append(slide.shapes.title.text)
            box = slide.shapes.add_textbox(Inches(0.7), Inches(1.8), Inches(rng.choice([4, 6, 8.5])), Inches(4.5))
            frame = box.text_frame
            frame.word_wrap = True
            size = Pt(rng.choice([16, 18, 20, 24]))
            for index in range(rng.randint(3, 7)):
                paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
                kind = rng.random()
                if kind < 0.5:
                    paragraph.text = phrase(rng, 2, 5)
                elif kind < 0.8:
                    paragraph.text = phrase(rng, 6, 14) + "."
                else:
                    paragraph.text = phrase(rng, 15, 35) + "."
                paragraph.font.size = size
                paragraphs.append(paragraph.text)
        path = folder / f"deck{number}.pptx"
        presentation.save(str(path))
        made.append((path, paragraphs))
    return made


def parsed_paragraphs(pdfs: list[Path], layers: Path | None = None) -> list[list[str]]:
    """Each PDF's paragraph and heading texts, whitespace collapsed: by this tree, or by `layers`' code."""
    script = (
        "import json, sys\n"
        "from docshelf.model import Heading, Paragraph\n"
        "from docshelf.parsers import parse_bytes\n"
        "out = []\n"
        "for path in sys.argv[1:]:\n"
        "    document = parse_bytes(open(path, 'rb').read(), 'slides.pdf')\n"
        "    out.append([' '.join(b.text.split()) for b in document.blocks() if isinstance(b, (Paragraph, Heading))])\n"
        "print(json.dumps(out))\n"
    )
    environment = {**os.environ, "DOCSHELF_OCR": "off", "PYTHONPATH": str(layers or REPO / "layers" / "docshelf")}
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, pdfs)], capture_output=True, text=True, check=True, env=environment
    )
    result: list[list[str]] = json.loads(done.stdout)
    return result


def score(wanted: list[list[str]], got: list[list[str]]) -> tuple[int, int, int, int]:
    """(paragraphs, whole, run together with another, split)."""
    whole = together = split = total = 0
    for paragraphs, blocks in zip(wanted, got, strict=True):
        found = set(blocks)
        for paragraph in paragraphs:
            text = " ".join(paragraph.split())
            total += 1
            if text in found:
                whole += 1
            elif any(text in block for block in blocks):
                together += 1
            else:
                split += 1
    return total, whole, together, split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=12)
    parser.add_argument("--seed", type=int, default=57)
    parser.add_argument("--tree", type=Path, help="also parse with another checkout's code, for a before/after")
    args = parser.parse_args()
    soffice = shutil.which("soffice")
    if soffice is None:
        print_table([("slides as PDF", "skipped", "LibreOffice (soffice) is not installed")])
        return
    with tempfile.TemporaryDirectory(prefix="docshelf-slides-") as folder:
        decks = make_decks(Path(folder), args.decks, args.seed)
        subprocess.run(
            [soffice, "--headless", "--convert-to", "pdf", "--outdir", folder, *(str(path) for path, _ in decks)],
            check=True,
            capture_output=True,
            timeout=600,
        )
        pdfs = [path.with_suffix(".pdf") for path, _ in decks]
        wanted = [paragraphs for _, paragraphs in decks]
        trees = [("this tree", None)]
        if args.tree:
            trees.append((str(args.tree), args.tree / "layers" / "docshelf"))
        rows: list[Row] = []
        for label, layers in trees:
            total, whole, together, split = score(wanted, parsed_paragraphs(pdfs, layers))
            rows.append(
                (
                    f"paragraphs back whole ({label})",
                    f"{whole / total:.3f}",
                    f"{whole} of {total} in {len(decks)} decks; run together {together}, split {split}",
                )
            )
    print_table(rows)


if __name__ == "__main__":
    main()
