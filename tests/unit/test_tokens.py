from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from docshelf.tokens import VOCAB_DIR, count_tokens, count_tokens_batch, decode, encode

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
