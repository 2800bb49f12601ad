"""Query side: query plans, expansion, corrections, channels fused by RRF, passages and cited evidence.

See docs/architecture.md#search.
"""
