"""Which terms recent searches found in more than half of a namespace's chunks.

A remote backend sends the expanded query in the same round trip that checks its terms' document
frequencies, so it must guess which terms the check will drop; this memory of earlier checks is the guess.
A wrong guess (a new term, or a namespace that changed) costs one more request, never a different result.
"""

from __future__ import annotations

import threading
from collections.abc import Collection

DEFAULT_CAPACITY = 20_000


class CommonTermMemory:
    """The latest verdict per (namespace, term), keeping the `capacity` most recently checked."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = capacity
        self._common: dict[tuple[str, str], bool] = {}
        self._lock = threading.Lock()

    def guess(self, namespace: str, terms: Collection[str]) -> set[str]:
        """Those of `terms` last found common; a term never checked is guessed not to be."""
        with self._lock:
            return {term for term in terms if self._common.get((namespace, term), False)}

    def learn(self, namespace: str, checked: Collection[str], common: Collection[str]) -> None:
        with self._lock:
            for term in checked:
                key = (namespace, term)
                self._common.pop(key, None)  # re-inserted last: dicts keep insertion order
                self._common[key] = term in common
            while len(self._common) > self.capacity:
                del self._common[next(iter(self._common))]
