"""One token budget for a whole plan, shared by steps that run at the same time.

A step reserves its share when it starts (what is left, divided among the steps not yet started), spends from
it as it claims evidence, and gives back what it did not use when it ends, for the steps after it. Every piece
of evidence is claimed once: a chunk two steps found is paid for by the first.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass
class TokenBudget:
    total: int
    steps_left: int
    spent: int = 0
    reserved: int = 0
    _claimed: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def free(self) -> int:
        """Tokens neither spent nor held by a running step."""
        with self._lock:
            return self.total - self.spent - self.reserved

    def reserve_share(self) -> Allowance:
        """The next step's share: an equal part of what is free among the steps not yet started."""
        with self._lock:
            free = self.total - self.spent - self.reserved
            share = min(free, -(-free // max(1, self.steps_left)))  # rounded up: the first of a tight wave runs
            self.steps_left = max(0, self.steps_left - 1)
            self.reserved += share
            return Allowance(self, share)

    def reserve_rest(self) -> Allowance:
        """Everything free (the fallback pool's turn, once every step ran)."""
        with self._lock:
            share = self.total - self.spent - self.reserved
            self.reserved += share
            return Allowance(self, share)

    def is_claimed(self, key: str) -> bool:
        with self._lock:
            return key in self._claimed

    def _claim(self, allowance: Allowance, key: str, cost: int) -> bool:
        with self._lock:
            if key in self._claimed or cost > allowance.left:
                return False
            self._claimed.add(key)
            allowance.left -= cost
            allowance.used += cost
            self.reserved -= cost
            self.spent += cost
            return True

    def _release(self, allowance: Allowance) -> None:
        with self._lock:
            self.reserved -= allowance.left
            allowance.left = 0


@dataclass
class Allowance:
    """A step's share of the budget: spent piece by piece, the rest released at the step's end."""

    budget: TokenBudget
    left: int
    used: int = 0

    def claim(self, key: str, cost: int) -> bool:
        """Pay `cost` for the evidence `key` when it fits and nobody claimed it yet; False otherwise."""
        return self.budget._claim(self, key, cost)

    def release(self) -> None:
        self.budget._release(self)
