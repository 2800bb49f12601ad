"""LaTeX sources read as their reader sees them: title, sections, paragraphs, math as LaTeX, lists, tables with
captions, code, abstract and references; never an error on a source the walker cannot follow."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest  # noqa: TC002 - the fixtures' types

from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from docshelf.tables import block_text

PAPER = r"""\documentclass{article}
\usepackage{amsmath,siunitx}
% a comment that never shows
\title{Seal Wear in Centrifugal Pumps\thanks{Funded by the Pump Trust.}}
\author{A. Ng \and B. Ruiz}
\begin{document}
\maketitle
\begin{abstract}
We measure seal wear on the PX-9 pump over 2{,}000~hours.
\end{abstract}

\section{Introduction}\label{sec:intro}
Mechanical seals fail early~\cite{ng2019,ruiz2021}. The wear rate $w = k\,p\,v$ depends
on pressure $p$ and sliding speed $v$ (see Section~\ref{sec:results}).\footnote{Speeds in m/s.}

A second paragraph with \emph{emphasis}, \textbf{bold}, Caf\'e and a dash --- here.

\subsection{Setup}
\begin{itemize}
  \item Pump PX-9 at \SI{2900}{rpm}
  \item Seal kit SK-7
  \begin{enumerate}
    \item new faces
    \item[(b)] lapped faces
  \end{enumerate}
\end{itemize}

\section{Results}\label{sec:results}
\begin{equation}
  w = \frac{\Delta h}{t} \label{eq:wear}
\end{equation}
\begin{table}[h]
  \centering
  \caption{Wear after 2000 hours}
  \begin{tabular}{lcr}
    \toprule
    Seal & Hours & Wear (\si{\micro\metre}) \\
    \midrule
    SK-7 new & 2000 & 12.5 \\
    SK-7 lapped & 2000 & 9.8 \\
    \bottomrule
  \end{tabular}
\end{table}
\begin{figure}[t]\centering\includegraphics[width=\linewidth]{wear.png}\caption{Seal faces after the test.}\end{figure}
\[ E = mc^2 \]
\begin{lstlisting}[language=Python]
wear = delta_h / t
\end{lstlisting}

\begin{thebibliography}{9}
\bibitem{ng2019} A. Ng. Seals. 2019.
\bibitem{ruiz2021} B. Ruiz. Wear. 2021.
\end{thebibliography}
\end{document}
"""


def shown(data: bytes, name: str = "paper.tex") -> list[tuple[str, object, str]]:
    found: list[tuple[str, object, str]] = []
    for block in parse_bytes(data, name).blocks():
        detail = block.level if isinstance(block, Heading) else block.list_level if isinstance(block, Paragraph) else ""
        found.append((block.kind, detail, block_text(block)))
    return found


def test_a_paper_reads_as_its_reader_sees_it() -> None:
    assert detect_format(PAPER.encode(), "paper.tex") == "latex"
    document = parse_bytes(PAPER.encode(), "paper.tex")
    assert document.title == "Seal Wear in Centrifugal Pumps"
    assert shown(PAPER.encode()) == [
        ("heading", 1, "Seal Wear in Centrifugal Pumps"),
        ("heading", 2, "Abstract"),
        ("paragraph", None, "We measure seal wear on the PX-9 pump over 2,000 hours."),
        ("heading", 2, "Introduction"),
        ("paragraph", None, "Mechanical seals fail early [ng2019, ruiz2021]. The wear rate $w = k\\,p\\,v$ depends on "
                            "pressure $p$ and sliding speed $v$ (see Section sec:results). (Speeds in m/s.)"),
        ("paragraph", None, "A second paragraph with emphasis, bold, Café and a dash — here."),
        ("heading", 3, "Setup"),
        ("paragraph", 0, "Pump PX-9 at 2900 rpm"),
        ("paragraph", 0, "Seal kit SK-7"),
        ("paragraph", 1, "new faces"),
        ("paragraph", 1, "(b) lapped faces"),
        ("heading", 2, "Results"),
        ("paragraph", None, "$$w = \\frac{\\Delta h}{t}$$"),
        ("table", "", "| Seal | Hours | Wear (µm) |\n|---|---|---|\n| SK-7 new | 2000 | 12.5 |\n"
                      "| SK-7 lapped | 2000 | 9.8 |"),
        ("paragraph", None, "Figure: Seal faces after the test."),
        ("paragraph", None, "$$E = mc^2$$"),
        ("paragraph", None, "wear = delta_h / t"),
        ("heading", 2, "References"),
        ("paragraph", 0, "[ng2019] A. Ng. Seals. 2019."),
        ("paragraph", 0, "[ruiz2021] B. Ruiz. Wear. 2021."),
    ]  # fmt: skip
    table = next(block for block in document.blocks() if isinstance(block, Table))
    assert table.caption == "Wear after 2000 hours"
    assert [block.code for block in document.blocks() if isinstance(block, Paragraph)][-3] is True


def test_a_chapter_file_without_a_preamble_and_a_broken_source_still_read() -> None:
    chapter = rb"\chapter{Maintenance}Check the seal.\section{Torque}The M10 bolts take 45~Nm."
    assert shown(chapter, "ch2.tex") == [
        ("heading", 1, "Maintenance"), ("paragraph", None, "Check the seal."), ("heading", 2, "Torque"),
        ("paragraph", None, "The M10 bolts take 45 Nm."),
    ]  # fmt: skip
    for broken in (rb"\section{Open brace never closed \textbf{x", rb"\begin{itemize}\item one", b"{" * 5000 + b"deep",
                   rb"\end{document} stray \end{itemize} $unclosed math"):  # fmt: skip
        document = parse_bytes(broken, "broken.tex")
        assert any(block_text(block) for block in document.blocks())


def test_an_arxiv_style_source_tarball_is_searched_and_cited_by_its_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from docshelf.local.cli import main

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as package:
        for name, body in {"main.tex": PAPER.encode(), "refs.bib": b"@article{ng2019, title={Seals}}"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            package.addfile(info, io.BytesIO(body))
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "2412.01234.tar.gz").write_bytes(out.getvalue())
    store = str(tmp_path / "store")
    assert main(["ingest", str(folder), "--namespace", "lab", "--store", store, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["search", "wear of lapped SK-7 seals after 2000 hours", "--namespace", "lab", "--store", store,
                 "--json"]) == 0  # fmt: skip
    response = json.loads(capsys.readouterr().out)
    assert response["results"][0]["section_path"][:2] == ["main.tex", "Seal Wear in Centrifugal Pumps"]
    assert "9.8" in response["evidence_text"]
