"""A form's fields, set in bold like headings but never headings: a check box's option (`☐ TRANSITION REPORT …`), a
label and the number filled in after it (`Commission file number: 000-30653`, `Phone: (702) 939-3254`), a field's
caption in brackets under it (`(Exact name of registrant as specified in its charter)`), a range whose blanks print
as nothing."""

from __future__ import annotations

import re

_CHECK_BOXES = "☐☑☒"
_FILLED_NUMBER = re.compile(r"^[^:：]{1,60}[:：][\s\d().,/+#–-]*\d{3}[\s\d().,/+#–-]*$")
# `For the transition period from ____ to ____` prints as "… from to". (A line ending in one such word may be a
# wrapped title: "1. Electronic Transfer of Plan Payments Initiated by the".)
_BLANK_RANGE = re.compile(r"\b(?:from|between)\s+(?:to|and)$", re.IGNORECASE)


def is_form_field(text: str) -> bool:
    if text[:1] in _CHECK_BOXES or _FILLED_NUMBER.match(text) is not None or _BLANK_RANGE.search(text) is not None:
        return True
    return text.startswith("(") and text.endswith(")") and text.count("(") == 1
