"""Query side: channels fused by RRF, filters, the token budget and cited evidence (DESIGN §5)."""
