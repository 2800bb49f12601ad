"""Mailboxes (`.mbox`: a mail client's or Google Takeout's export): the messages one after the other, each read as an
`.eml` is (its subject a heading of the mailbox's first level, its sender, date, body and attachments under it). A
message starts at a `From ` line after a blank line (or at the start); a body line that began with `From ` was
written with a `>` before it, which is taken away. A message that cannot be read is left out with a warning."""

from __future__ import annotations

import re

from docshelf.errors import CorruptDocumentError, DocumentError
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup import eml

_SEPARATOR = re.compile(rb"(?:\A|\r?\n\r?\n)From [^\r\n]*\r?\n")
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.M)
MAX_MESSAGES = 100_000


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    separators = [match for _, match in zip(range(MAX_MESSAGES + 1), _SEPARATOR.finditer(data), strict=False)]
    if not separators:  # one message saved without the mailbox's separator line
        return eml.parse(data, filename=filename, limits=limits)
    ends = [match.start() for match in separators[1:]] + [len(data)]
    content = ParsedContent(blocks=[], page_count=1)
    for number, (separator, end) in enumerate(zip(separators[:MAX_MESSAGES], ends, strict=False), start=1):
        try:
            message = eml.parse(_QUOTED_FROM.sub(rb"\1", data[separator.end() : end]), filename=filename, limits=limits)
        except DocumentError as exc:
            content.warnings.append(f"message {number} left out: {exc}")
            continue
        content.blocks += message.blocks
        content.assets.update(message.assets)
        content.warnings += [f"message {number}: {warning}" for warning in message.warnings]
    if not content.blocks:
        raise CorruptDocumentError(f"no message of the mailbox could be read ({'; '.join(content.warnings[:3])})")
    if len(separators) > MAX_MESSAGES:
        content.warnings.append(f"only the first {MAX_MESSAGES} messages are read")
    return content
