"""The pure pieces of PP-OCR reading (ocr/line_detection.py, ocr/ctc.py, ocr/reading_order.py) on constructed input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from docshelf.ocr.ctc import greedy_decode, words
from docshelf.ocr.line_detection import text_line_boxes
from docshelf.ocr.reading_order import paragraphs


def test_each_band_of_the_map_is_a_line_grown_back_and_specks_and_faint_regions_are_dropped() -> None:
    probability = np.zeros((200, 400), dtype=np.float32)
    probability[20:30, 10:300] = 0.9  # a line
    probability[60:70, 10:200] = 0.9  # a shorter line below
    probability[100:102, 50:52] = 0.9  # a speck
    probability[140:150, 10:300] = 0.35  # above the threshold, below the box threshold: faint
    boxes = text_line_boxes(probability)
    assert len(boxes) == 2
    first, second = (box.box for box in boxes)
    assert first[1] < 20 and first[3] > 30 and first[0] < 10 and first[2] > 300  # grown beyond the core
    assert second[1] > first[3] - 10
    assert all(box.angle == 0.0 for box in boxes)


def test_a_line_scanned_askew_gets_its_own_turned_rectangle() -> None:
    probability = np.zeros((200, 600), dtype=np.float32)
    slope = math.tan(math.radians(2))
    for x in range(20, 580):
        top = 50 + round((x - 20) * slope)
        probability[top : top + 12, x] = 0.9
    (line,) = text_line_boxes(probability)
    assert math.degrees(line.angle) == pytest.approx(2.0, abs=0.3)
    # the line's 12 px grown by the DB rule (about 36), not the 31 rows it crosses grown so (about 78)
    assert line.height < 45


def test_ctc_merges_repeats_drops_blanks_and_places_each_character() -> None:
    charset = ("", "A", "B", " ")
    steps = [1, 1, 0, 2, 3, 1, 0, 1]  # A A _ B space A _ A  ->  "AB AA"
    probabilities = np.full((1, len(steps), len(charset)), 0.01, dtype=np.float32)
    for step, found in enumerate(steps):
        probabilities[0, step, found] = 0.9
    (line,) = greedy_decode(probabilities, charset)
    assert line.text == "AB AA"
    assert line.steps == (0, 3, 4, 5, 7)
    read = words(line)
    assert [word.text for word in read] == ["AB", "AA"]
    assert (read[0].left, read[0].right) == (-0.5, 3.5)
    assert (read[1].left, read[1].right) == (4.5, 7.5)


def test_two_columns_under_a_title_are_read_title_then_left_then_right() -> None:
    title = (100, 50, 900, 110)
    left = [(100, 200 + 40 * row, 480, 230 + 40 * row) for row in range(4)]
    right = [(520, 200 + 40 * row, 900, 230 + 40 * row) for row in range(4)]
    boxes = [title, *right, *left]  # any order in
    order = [index for paragraph in paragraphs(boxes, 1000) for line in paragraph for index in line]
    assert order == [0, 5, 6, 7, 8, 1, 2, 3, 4]


def test_an_unruled_table_is_read_row_by_row_each_row_one_line() -> None:
    cells = [(100 + 250 * col, 100 + 40 * row, 180 + 250 * col, 130 + 40 * row) for row in range(4) for col in range(3)]
    (paragraph,) = paragraphs(cells, 1000)
    assert paragraph == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]


def test_a_gap_or_a_change_of_size_starts_a_paragraph() -> None:
    boxes = [(100, 50, 600, 120), (100, 200, 900, 230), (100, 240, 900, 270), (100, 400, 900, 430)]
    assert paragraphs(boxes, 1000) == [[[0]], [[1], [2]], [[3]]]
