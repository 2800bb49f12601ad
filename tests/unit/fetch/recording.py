"""A resolver and a connector that record every question: a refused fetch must have asked for no connection."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field


@dataclass
class RecordingResolver:
    answers: dict[str, list[str]] = field(default_factory=dict)
    asked: list[tuple[str, int]] = field(default_factory=list)

    def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append((host, port))
        return list(self.answers.get(host, []))


@dataclass
class RecordingConnector:
    """Connects for real only when `live` (to a local test server); records every attempt either way."""

    live: bool = False
    attempts: list[tuple[str, int]] = field(default_factory=list)

    def __call__(self, address: str, port: int, timeout: float) -> socket.socket:
        self.attempts.append((address, port))
        if not self.live:
            raise ConnectionRefusedError("the recording connector connects nowhere")
        return socket.create_connection((address, port), timeout=timeout)
