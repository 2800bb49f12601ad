"""Token counting with tiktoken's cl100k_base, loaded from the vocabulary shipped with the package.

tiktoken downloads vocabularies on first use; that fails offline and in a Lambda without internet.
`infra/fetch_vocab.py` places the file in `docshelf/vocab/` under the name tiktoken's cache uses
(the sha1 of its download address), so tiktoken finds it in its cache and never goes to the network.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from docshelf.errors import DocshelfError

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "cl100k_base"
VOCAB_DIR = Path(__file__).parent / "vocab"
VOCAB_CACHE_KEY = "9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
VOCAB_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


class VocabularyMissingError(DocshelfError):
    pass


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    import tiktoken

    if not (VOCAB_DIR / VOCAB_CACHE_KEY).is_file():
        raise VocabularyMissingError(
            f"the {ENCODING_NAME} vocabulary is missing from {VOCAB_DIR}; run `python infra/fetch_vocab.py`"
        )
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(VOCAB_DIR)
    try:
        return tiktoken.get_encoding(ENCODING_NAME)
    finally:
        if previous is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = previous


def encode(text: str) -> list[int]:
    return encoding().encode(text, disallowed_special=())


def decode(tokens: Sequence[int]) -> str:
    return encoding().decode(list(tokens))


def count_tokens(text: str) -> int:
    if not text:
        return 0
    return len(encode(text))


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    return [len(ids) for ids in encoding().encode_ordinary_batch(list(texts))]
