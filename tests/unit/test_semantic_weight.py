"""The semantic channel's weight per query: lower as the best content chunk holds more of the query's words."""

from __future__ import annotations

import pytest

from docshelf.search.service import _lexical_doubt

IDF = {"brake": 2.0, "pads": 1.0, "winter": 0.5, "physician": 0.0}


@pytest.mark.parametrize(
    ("terms", "best", "doubt"),
    [
        (["brake", "pads"], {"brake": 1, "pads": 2}, 0.0),  # the chunk holds the whole query
        (["brake", "pads"], {"pads": 1}, 2 / 3),  # it lacks the rarer word
        (["brake", "pads", "brake"], {"brake": 1}, 1 / 3),  # a repeated word counts once
        (["brake", "physician"], {"brake": 1}, 0.5),  # no chunk holds "physician": it weighs as "brake"
        (["physician"], {}, 1.0),
        ([], {}, 1.0),
    ],
)
def test_lexical_doubt(terms: list[str], best: dict[str, int], doubt: float) -> None:
    assert _lexical_doubt(terms, best, IDF) == pytest.approx(doubt)
