"""Fixtures that the tests and the benches both use: generated scans, office documents, images, hostile inputs and
a reference search engine. Importable as `tests.support` from the repository root (pytest's `pythonpath`, and
`python -m bench.NAME`), with no `sys.path` edits."""
