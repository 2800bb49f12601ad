"""Agentic search: a planned DAG of searches and section navigation under one token budget (issue #24)."""
