"""A line recogniser's CTC output read greedily, each character with where it stands, and split into words.

The recogniser emits, for each of T steps across the (padded) line image, a probability per class: class 0 is CTC's
blank, then the model's characters, then a space. The best class of each step, repeats merged and blanks dropped, is
the text; the step a character was read at says where on the line it stands, which gives words their boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class ReadLine:
    characters: tuple[str, ...]
    steps: tuple[int, ...]  # the step each character was read at
    confidences: tuple[float, ...]

    @property
    def text(self) -> str:
        return "".join(self.characters)

    @property
    def confidence(self) -> float:
        return float(np.mean(self.confidences)) if self.confidences else 0.0


def greedy_decode(probabilities: np.ndarray, charset: tuple[str, ...]) -> list[ReadLine]:
    """Each line of a batch (N x T x classes) as its characters; charset[k] is class k's character (charset[0] the
    blank)."""
    best = probabilities.argmax(axis=2)
    confidence = probabilities.max(axis=2)
    lines = []
    for classes, scores in zip(best.tolist(), confidence.tolist(), strict=True):
        characters: list[str] = []
        steps: list[int] = []
        confidences: list[float] = []
        previous = 0
        for step, (found, score) in enumerate(zip(classes, scores, strict=True)):
            if found != 0 and found != previous and found < len(charset):
                characters.append(charset[found])
                steps.append(step)
                confidences.append(score)
            previous = found
        lines.append(ReadLine(tuple(characters), tuple(steps), tuple(confidences)))
    return lines


@dataclass(frozen=True, slots=True)
class ReadWord:
    text: str
    left: float  # in steps
    right: float
    confidence: float


def words(line: ReadLine) -> list[ReadWord]:
    """The line's words: runs of characters between the spaces it read, each spanning its first to its last
    character's step (half a step either side)."""
    found: list[ReadWord] = []
    start = 0
    characters = (*line.characters, " ")
    for end, character in enumerate(characters):
        if character != " ":
            continue
        if end > start:
            found.append(
                ReadWord(
                    "".join(line.characters[start:end]),
                    line.steps[start] - 0.5,
                    line.steps[end - 1] + 0.5,
                    float(np.mean(line.confidences[start:end])),
                )
            )
        start = end + 1
    return found
