"""Files inside files (an e-mail's attachments, an archive's members) are read one level deep: a container met
inside another (a message attached to a message, a zip inside a zip) names its files without reading them, so a
file that holds itself (a zip quine) or nests without end is read once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace

from docshelf.model import Block, Heading

_INSIDE_CONTAINER: ContextVar[bool] = ContextVar("inside_container", default=False)


def inside_container() -> bool:
    """Whether the file being read is itself a container's member (then it names its own members only)."""
    return _INSIDE_CONTAINER.get()


@contextmanager
def reading_members() -> Iterator[None]:
    """While a container's members are read."""
    token = _INSIDE_CONTAINER.set(True)
    try:
        yield
    finally:
        _INSIDE_CONTAINER.reset(token)


def member_block(block: Block, below: int) -> Block:
    """A member's block in its container: on the container's one page (a member's own pages are not the
    container's), a heading `below` levels deeper than the member had it (under the heading naming the member)."""
    if isinstance(block, Heading):
        return replace(block, level=min(block.level + below, 6), page=1)
    return replace(block, page=1)
