"""Query side: query plans, expansion, corrections, channels fused by RRF, passages and cited evidence (DESIGN §5)."""
