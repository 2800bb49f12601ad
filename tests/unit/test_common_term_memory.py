from __future__ import annotations

from docshelf.index.opensearch.common_term_memory import CommonTermMemory


def test_guesses_follow_the_latest_check_per_namespace() -> None:
    memory = CommonTermMemory()
    assert memory.guess("ns", ["the", "seal"]) == set()
    memory.learn("ns", ["the", "seal"], {"the"})
    assert memory.guess("ns", ["the", "seal", "new"]) == {"the"}
    assert memory.guess("other", ["the"]) == set()
    memory.learn("ns", ["the"], set())
    assert memory.guess("ns", ["the"]) == set()


def test_the_least_recently_checked_terms_are_forgotten_first() -> None:
    memory = CommonTermMemory(capacity=2)
    memory.learn("ns", ["a", "b"], {"a", "b"})
    memory.learn("ns", ["a"], {"a"})  # checked again: now the most recent
    memory.learn("ns", ["c"], {"c"})
    assert memory.guess("ns", ["a", "b", "c"]) == {"a", "c"}
