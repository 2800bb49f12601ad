"""What equations share as LaTeX, whichever markup they come in (OMML in Office files, MathML on the web and in
ODF and EPUB): Unicode symbols as commands, function names, scripts' bases, and the spacing of commands."""

from __future__ import annotations

import re

SYMBOLS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\epsilon", "ϵ": r"\epsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ι": r"\iota", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu",
    "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "υ": r"\upsilon",
    "φ": r"\phi", "ϕ": r"\phi", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta",
    "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi", "Σ": r"\Sigma", "Υ": r"\Upsilon", "Φ": r"\Phi",
    "Ψ": r"\Psi", "Ω": r"\Omega", "±": r"\pm", "∓": r"\mp", "×": r"\times", "÷": r"\div", "·": r"\cdot",
    "⋅": r"\cdot", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "∼": r"\sim",
    "∝": r"\propto", "∞": r"\infty", "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow",
    "⇒": r"\Rightarrow", "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "∈": r"\in", "∉": r"\notin",
    "⊂": r"\subset", "⊆": r"\subseteq", "⊃": r"\supset", "⊇": r"\supseteq", "∪": r"\cup", "∩": r"\cap",
    "∅": r"\emptyset", "∂": r"\partial", "∇": r"\nabla", "∀": r"\forall", "∃": r"\exists", "¬": r"\neg",
    "∧": r"\wedge", "∨": r"\vee", "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint",
    "∮": r"\oint", "⋯": r"\cdots", "…": r"\ldots", "ℏ": r"\hbar", "ℓ": r"\ell", "°": r"^{\circ}", "′": "'",
    "−": "-", "{": r"\{", "}": r"\}", "%": r"\%", "#": r"\#", "&": r"\&", "_": r"\_", "$": r"\$",
    "\\": r"\backslash",
}  # fmt: skip
# Accents over a base, as combining marks (OMML) or spacing characters (MathML's <mover accent="true">).
ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0305": r"\bar", "\u0307": r"\dot",
           "\u0308": r"\ddot", "\u20d7": r"\vec", "\u0301": r"\acute", "\u0300": r"\grave", "\u030c": r"\check",
           "^": r"\hat", "ˆ": r"\hat", "~": r"\tilde", "˜": r"\tilde", "¯": r"\bar", "‾": r"\bar", "˙": r"\dot",
           "¨": r"\ddot", "→": r"\vec", "ˇ": r"\check"}  # fmt: skip
_SPACE_BEFORE_MARK = re.compile(r"(?<=[A-Za-z]) +(?=[^A-Za-z\\ ])|(?<=[{(\[]) +")
_SPACES = re.compile(r"  +")
FUNCTIONS = frozenset(
    ["sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "coth", "log",
     "ln", "lg", "exp", "lim", "max", "min", "det", "sup", "inf", "gcd", "deg", "dim", "ker", "arg", "Pr"]
)  # fmt: skip


def symbols(text: str) -> str:
    """Unicode symbols as LaTeX commands, each command a space before what follows (`spaced` trims it)."""
    return "".join(command(SYMBOLS[char]) if char in SYMBOLS else char for char in text)


def command(latex: str) -> str:
    return latex + " " if latex[-1:].isalpha() else latex


def grouped(text: str) -> str:
    """A script's base or argument: one symbol as it is, more in braces."""
    text = text.strip()
    return text if len(text) == 1 or (text.startswith("\\") and text[1:].isalpha()) else f"{{{text}}}"


def spaced(latex: str) -> str:
    """The equation with each symbol command's space (`\\pi r`, not `\\pir`) kept only before a letter or another
    command."""
    return _SPACES.sub(" ", _SPACE_BEFORE_MARK.sub("", latex)).strip()


def token(text: str) -> str:
    """An identifier, number or operator: a function name (`sin`) as its command, other symbols as theirs."""
    return command("\\" + text) if text in FUNCTIONS else symbols(text)


def matrix(rows: list[list[str]]) -> str:
    return r"\begin{matrix}" + r" \\ ".join(" & ".join(cells) for cells in rows) + r"\end{matrix}"
