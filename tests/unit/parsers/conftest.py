"""Fixtures of the parser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The pids of the worker processes forked during the test."""
    pids: list[int] = []
    real_fork = os.fork

    def counting_fork() -> int:
        pid = real_fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counting_fork)
    yield pids
