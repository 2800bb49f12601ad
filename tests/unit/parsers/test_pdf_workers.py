from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Callable

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf import forked
from docshelf.errors import ParseTimeoutError
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.deadline import time_budget
from docshelf.parsers.pdf import pdf, pdf_workers
from docshelf.parsers.pdf.pdf_workers import deal_ranges, map_page_ranges, worker_count

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")
WIDTH, HEIGHT = A4


def _long_pdf(pages: int) -> bytes:
    """Pages with running furniture, numbered headings, two-column stretches and a ruled table now and then."""
    buffer = io.BytesIO()
    pdf_canvas = canvas.Canvas(buffer, pagesize=A4)
    for page in range(1, pages + 1):
        pdf_canvas.setFont("Helvetica", 8)
        pdf_canvas.drawString(72, HEIGHT - 30, "Field Manual - Distribution Restricted")
        pdf_canvas.drawRightString(WIDTH - 72, 30, str(page))
        pdf_canvas.setFont("Helvetica-Bold", 16)
        pdf_canvas.drawString(72, HEIGHT - 80, f"{page} Procedure {page}")
        pdf_canvas.setFont("Helvetica", 10)
        columns = (72, 320) if page % 3 == 0 else (72,)
        for x in columns:
            for line in range(12):
                pdf_canvas.drawString(x, HEIGHT - 120 - 14 * line, f"Step {line} of page {page} column {x} text.")
        if page % 5 == 0:
            for row in range(4):
                pdf_canvas.line(72, 300 - 20 * row, 400, 300 - 20 * row)
                for col, x in enumerate((80, 200, 320)):
                    pdf_canvas.drawString(x, 286 - 20 * row, f"r{row}c{col}p{page}")
            for x in (72, 190, 310, 400):
                pdf_canvas.line(x, 300, x, 240)
        pdf_canvas.showPage()
    pdf_canvas.save()
    return buffer.getvalue()


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@needs_fork
def test_parallel_and_serial_extraction_give_the_same_content(
    monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    data = _long_pdf(150)
    monkeypatch.setattr(pdf, "worker_count", lambda _pages: 1)
    serial = pdf.parse(data, filename="long.pdf", limits=ParseLimits())
    assert not forks
    monkeypatch.setattr(pdf, "worker_count", lambda _pages: 3)
    parallel = pdf.parse(data, filename="long.pdf", limits=ParseLimits())
    assert len(forks) == 4  # two workers to read the pages, two to lay out their paragraphs and tables
    assert parallel == serial
    assert serial.page_count == 150
    assert any(block.kind == "table" for block in serial.blocks)
    assert all(_reaped(pid) for pid in forks)


def test_pages_are_dealt_once_each_in_slices() -> None:
    shares = deal_ranges(100, 3, slice_pages=16)
    assert shares == [[(0, 16), (48, 64), (96, 100)], [(16, 32), (64, 80)], [(32, 48), (80, 96)]]
    assert deal_ranges(10, 2, slice_pages=16) == [[(0, 10)], []]


def _pages(start: int, end: int) -> list[int]:
    return [index * index for index in range(start, end)]


@needs_fork
def test_results_come_back_in_page_order(forks: list[int]) -> None:
    assert map_page_ranges(_pages, 200, 4) == _pages(0, 200)
    assert len(forks) == 3


@needs_fork
def test_a_worker_that_dies_has_its_pages_read_by_the_caller(forks: list[int]) -> None:
    caller = os.getpid()

    def dies_in_workers(start: int, end: int) -> list[int]:
        if os.getpid() != caller:
            os._exit(3)
        return _pages(start, end)

    assert map_page_ranges(dies_in_workers, 100, 2) == _pages(0, 100)
    assert len(forks) == 1 and _reaped(forks[0])


@needs_fork
def test_an_error_in_a_worker_is_raised_by_the_caller_as_in_a_serial_read() -> None:
    def fails_on_page_70(start: int, end: int) -> list[int]:
        if start <= 70 < end:
            raise ValueError("page 70 is broken")
        return _pages(start, end)

    with pytest.raises(ValueError, match="page 70"):
        map_page_ranges(fails_on_page_70, 100, 2)


@needs_fork
def test_timeout_kills_and_reaps_the_workers(forks: list[int]) -> None:
    caller = os.getpid()

    def hangs_in_workers(start: int, end: int) -> list[int]:
        if os.getpid() != caller:
            time.sleep(600)
        return _pages(start, end)

    with pytest.raises(ParseTimeoutError), time_budget(0.5):
        map_page_ranges(hangs_in_workers, 200, 3)
    assert len(forks) == 2
    assert all(_reaped(pid) for pid in forks)


@needs_fork
def test_timeout_while_the_caller_reads_its_own_pages_kills_the_workers(forks: list[int]) -> None:
    def slow_everywhere(start: int, end: int) -> list[int]:
        time.sleep(600)
        return _pages(start, end)

    with pytest.raises(ParseTimeoutError), time_budget(0.5):
        map_page_ranges(slow_everywhere, 100, 2)
    assert len(forks) == 1 and _reaped(forks[0])


def _with_thread(action: Callable[[], int]) -> int:
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        return action()
    finally:
        release.set()
        thread.join()


@needs_fork
def test_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "spare_cpus", lambda: 8)
    threads = threading.active_count
    # Other tests in the session may leave a thread behind (a server, a client pool): count only this one.
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert worker_count(10) == 1
    assert worker_count(100) == 2
    assert worker_count(5000) == pdf_workers.MAX_WORKERS
    monkeypatch.setattr(threading, "active_count", threads)
    assert _with_thread(lambda: worker_count(5000)) == 1
    monkeypatch.setattr(forked, "spare_cpus", lambda: 1)
    assert worker_count(5000) == 1
