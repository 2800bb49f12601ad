"""English stop words (the common Lucene/Snowball core set), and the Chinese question words queries leave out."""

from __future__ import annotations

import re

ENGLISH_STOP_WORDS: frozenset[str] = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not of off on once only or other our ours ourselves out over own same she should so some
    such than that the their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you your yours
    yourself yourselves""".split()  # noqa: SIM905 - a word list reads best as text
)


# Chinese question words and particles, simplified and traditional. Like English what/which/who/how above
# they name no topic, yet prose rarely holds them, so their idf is high and a question's 什么 / 哪 / 谁 / 多少
# would pull in whichever chunk happens to ask something. Query side only: they are cut out of the query text
# before analysis, so neither they nor the bigrams straddling them (是什, 有多) are searched for.
CJK_QUESTION_WORDS: tuple[str, ...] = (
    "多少", "如何", "为何", "為何", "何时", "何時", "何处", "何處", "怎么", "怎麼", "怎样", "怎樣", "是否",
)  # fmt: skip
CJK_QUESTION_CHARS = "什么麼谁誰哪吗嗎呢"
_CJK_QUESTION = re.compile("|".join(CJK_QUESTION_WORDS) + f"|[{CJK_QUESTION_CHARS}]")


def without_question_words(normalized: str) -> str:
    """Normalised query text with the Chinese question words replaced by spaces."""
    return _CJK_QUESTION.sub(" ", normalized)
