"""Holds the tiktoken vocabulary file, fetched at install/build time by `infra/fetch_vocab.py`."""
