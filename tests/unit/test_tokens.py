from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import tiktoken

from docshelf import forked, tokens
from docshelf.tokens import VOCAB_DIR, count_tokens, count_tokens_batch, decode, encode

if TYPE_CHECKING:
    import pytest

OFFLINE_PROBE = textwrap.dedent(
    """
    import socket

    def refuse(*args, **kwargs):
        raise OSError("network disabled in this test")

    socket.socket = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    from docshelf.tokens import count_tokens
    print(count_tokens("hello world"), count_tokens("tiktoken is great!"), count_tokens("你好，世界"))
    """
)


def test_known_counts() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("tiktoken is great!") == 6
    assert count_tokens_batch(["hello world", "tiktoken is great!"]) == [2, 6]
    assert decode(encode("TX-100 阀门")) == "TX-100 阀门"


def test_special_token_text_is_plain_text() -> None:
    assert count_tokens("<|endoftext|>") > 1


def test_encoding_loads_with_networking_disabled_and_no_tiktoken_cache(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")}
    env.update(TMPDIR=str(tmp_path), HOME=str(tmp_path), NO_PROXY="*", HTTPS_PROXY="http://127.0.0.1:9")
    result = subprocess.run(
        [sys.executable, "-c", OFFLINE_PROBE], capture_output=True, text=True, env=env, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2", "6", "6"]
    assert not any(tmp_path.iterdir()), "tiktoken must not have written a cache copy"
    assert (VOCAB_DIR / "9b5ad71b2ce5302211f9c61530b329a4922fc6a4").is_file()


def test_large_batches_counted_in_threads_match_one_by_one_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "spare_cpus", lambda: 3)
    texts = [f"Paragraph {i}: " + "tiktoken counts 阀门 tokens. " * (i % 50) for i in range(3000)] + [""]
    assert sum(map(len, texts)) > tokens.PARALLEL_COUNT_MIN_CHARS
    assert count_tokens_batch(texts) == [count_tokens(text) for text in texts]
    assert count_tokens_batch([]) == []


def test_balanced_slices_cover_every_index_once() -> None:
    assert tokens._balanced_slices([1] * 10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert tokens._balanced_slices([100, 1, 1], 2) == [(0, 1), (1, 3)]
    assert tokens._balanced_slices([1, 1, 100], 2) == [(0, 2), (2, 3)]
    assert tokens._balanced_slices([5], 4) == [(0, 1)]


def test_cpus_can_be_capped_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forked.CPUS_ENV, "1")
    assert forked.usable_cpus() == 1
    monkeypatch.setenv(forked.CPUS_ENV, "not a number")
    assert forked.usable_cpus() >= 1


def test_no_spare_cpus_when_the_machine_has_no_idle_capacity(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(forked, "usable_cpus", lambda: 4)
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(forked, "_LOADAVG", str(loadavg))
    cases = {  # (one-minute load average, runnable tasks now as /proc/loadavg counts them, this one included)
        "idle but for this process": (1.0, "1"),
        "one other busy process": (2.2, "2"),
        "saturated": (4.0, "6"),
        "a busy minute past, idle now": (4.0, "1"),
        "a busy minute past, two others running now": (4.0, "3"),
        "the running count unreadable": (4.0, "?"),
    }
    spare = {}
    for name, (load, running) in cases.items():
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        loadavg.write_text(f"{load} {load} {load} {running}/412 7071\n")
        monkeypatch.setattr(forked, "_running_seen", [])
        spare[name] = forked.spare_cpus()
    assert spare == {
        "idle but for this process": 4,
        "one other busy process": 4,
        "saturated": 1,
        "a busy minute past, idle now": 4,
        "a busy minute past, two others running now": 2,
        "the running count unreadable": 1,
    }


def test_the_running_count_is_the_busiest_of_its_samples_and_is_reused_for_a_second(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(forked, "usable_cpus", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 3.0, 3.0))
    monkeypatch.setattr(forked, "_running_seen", [])
    samples = [1, 2, 1]
    reads: list[int] = []

    def runnable() -> int:
        reads.append(samples[len(reads)])
        return reads[-1]

    monkeypatch.setattr(forked, "_runnable_tasks", runnable)
    assert forked.spare_cpus() == 1  # one other task ran in one sample of three
    assert forked.spare_cpus() == 1  # the same answer within the second, nothing read again
    assert len(reads) == forked._RUNNING_SAMPLES == 3


def test_the_shipped_encoding_is_tiktokens_own_cl100k_base(monkeypatch: pytest.MonkeyPatch) -> None:
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext import openai_public

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(VOCAB_DIR))  # tiktoken reads the shipped file as its cache
    reference = openai_public.cl100k_base()
    assert reference["pat_str"] == tokens.CL100K_PATTERN
    assert reference["special_tokens"] == tokens.CL100K_SPECIAL_TOKENS
    assert tokens.mergeable_ranks() == load_tiktoken_bpe(
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken", expected_hash=tokens.VOCAB_SHA256
    )
    text = "Replace the TX-100 seal (v2.3.1) 阀门的额定压力 東京です\r\n\tÅngström <|endoftext|> 😀"
    assert encode(text) == tiktoken.Encoding(**reference).encode(text, disallowed_special=())


def test_a_long_text_counted_in_pieces_has_the_count_of_one_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    parts = ["valve", "Seal", " ", "  ", "\n", "\n\n", ".", "...", "TX-100", "200", "1234567", "'s", "新员工", "é",
             "don't", "\t", "(see", "p. 3)", "!!", "\u00a0", "a\u3000b", "x\x1fy", "👍", "--"]  # fmt: skip
    texts = ["".join(rng.choices(parts, k=rng.randint(50, 400))) for _ in range(40)]
    whole = [len(tokens.encoding().encode_ordinary(text)) for text in texts]
    monkeypatch.setattr(tokens, "LONG_TEXT_CHARS", 16)  # every text is cut many times
    assert [tokens.count_tokens(text) for text in texts] == whole
    assert tokens.count_tokens_batch(texts) == whole
