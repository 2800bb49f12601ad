from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

import docshelf

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or platform.libc_ver()[0] != "glibc", reason="the thresholds are glibc's"
)

# What the index's counting does many times a build: np.unique over 600k keys allocates and frees arrays of
# megabytes. The page faults of 20 calls, after one to warm up.
_WORKLOAD = """
import resource, sys
import numpy as np
from docshelf.allocator import keep_freed_memory
applied = keep_freed_memory() if sys.argv[1] == "kept" else None
keys = np.random.default_rng(0).integers(0, 1 << 40, 600_000)
np.unique(keys, return_counts=True)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    np.unique(keys, return_counts=True)
print(applied, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _run(mode: str, **settings: str) -> tuple[str, int]:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("MALLOC_")}
    environment["PYTHONPATH"] = str(Path(docshelf.__file__).parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _WORKLOAD, mode], env=environment | settings, capture_output=True, text=True, check=True
    )
    applied, faults = done.stdout.split()
    return applied, int(faults)


def test_freed_arrays_are_reused_without_faulting_their_pages_in_again() -> None:
    _, default_faults = _run("default")
    applied, kept_faults = _run("kept")
    assert applied == "True"
    assert default_faults > 10_000  # about 1,400 a call with glibc's dynamic thresholds
    assert kept_faults < default_faults / 10


def test_thresholds_the_user_set_for_glibc_are_left_alone() -> None:
    applied, _ = _run("kept", MALLOC_TRIM_THRESHOLD_="1048576")
    assert applied == "False"
