"""The rule-based planner: works offline, splits composite questions into steps, keeps a single one whole.

- multi-part questions: parts end at `?`, `？`, `;`, `；`, at ` and ` followed by a new question ("and what",
  "and in which"), at numbered items ("1) ... 2) ..."), and in Chinese at `，` or `以及` after a clause with a
  question word; each part is its own search; a part that starts by pointing back ("that", "it", "它", "该")
  depends on the part before and carries its words;
- comparisons ("compare X and Y", "X vs Y", "difference between X and Y", "比较X和Y", "X与Y的区别") and
  enumerations ("the warranty of A, B and C", "A、B和C") become one search per item, the shared words of the first
  item ("the warranty of") lent to the short ones after it;
- a part asking for an overview, a summary or a whole section also gets a navigate step over what its search
  found.
"""

from __future__ import annotations

import re

from docshelf.agentic.plan import MAX_STEPS, Plan, Step, validate_plan

_QUESTION_WORDS = (
    r"what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|should|will|would|has|have"
)
_ZH_QUESTION = re.compile(
    r"什[么麼]|多[长長大高久远遠重深宽寬]|[谁誰哪何几幾吗嗎呢]|多少|如何|[怎][么麼样樣]|[为為]什[么麼]|是否"
)
_PREPOSITIONS = r"in|on|at|for|from|by|to|of|with|during|since|after|before|under|between"
_PART_END = re.compile(
    r"[?？;；]+|,?\s+and\s+also\s+|[,，]\s*另外|\s+and\s+(?=(?:(?:"
    + _PREPOSITIONS
    + r")\s+)?(?:"
    + _QUESTION_WORDS
    + r")\b)",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"(?:^|\s)\(?\d{1,2}[.)]\s+")
_ZH_CLAUSE = re.compile(r"(，|,|以及)")
_HAS_WORD = re.compile(r"\w")
_BACK_REFERENCE = re.compile(
    r"^(?:(?:" + _QUESTION_WORDS + r")\s+)*(?:\w+\s+)?(?:(?:" + _QUESTION_WORDS + r")\s+)*"
    r"(that|it|this|these|those|they)\b(?!\s+(?:is|are|was|were)\b)"
    r"|^(它|其|这|那|该)",
    re.IGNORECASE,
)
_COMPARE_QUESTIONS = re.compile(  # "compare what X is and how Y works": two questions, split before the second
    r"^(?:please\s+)?(?:compare|contrast)\s+(.+?)\s+(?:and|with)\s+(?=(?:" + _QUESTION_WORDS + r")\b)(.+)$",
    re.IGNORECASE,
)
_STARTS_A_QUESTION = re.compile(r"^(?:" + _QUESTION_WORDS + r")\b", re.IGNORECASE)
_COMPARE_LEAD = re.compile(r"^(?:please\s+)?(?:compare|contrast)\s+(?=(?:" + _QUESTION_WORDS + r")\b)", re.IGNORECASE)
_VERSUS = re.compile(r"\s(?:vs\.?|versus)\s", re.IGNORECASE)
_COMPARE_EN = re.compile(
    r"^(?:please\s+)?(?:compare|contrast)\s+(.+?)\s+(?:and|with|to|against)\s+(.+)$"
    r"|^(?:what\s+(?:is|are)\s+)?(?:the\s+)?differences?\s+between\s+(.+?)\s+and\s+(.+)$"
    r"|^(.+?)\s+(?:vs\.?|versus)\s+(.+)$",
    re.IGNORECASE,
)
_COMPARE_ZH = re.compile(
    r"^(?:比较|对比)(.+?)[和与跟及](.+)$|^(.+?)[和与跟](.+?)(?:的)?(?:区别|不同|差异|异同|相比).*$"
)
_ENUMERATION_EN = re.compile(r"^(.+?),\s*(.+?),?\s+(?:and|or)\s+(.+)$", re.IGNORECASE)
_ENUMERATION_ZH = re.compile(r"[、]")
_NAVIGATE = re.compile(
    r"\b(?:overview|outline|summar(?:y|ise|ize)|table of contents)\b"
    r"|\b(?:whole|entire|full)\s+(?:section|chapter)\b|\b(?:sections?|chapters?)\s+(?:on|about)\b"
    r"|章节|概述|概要|总结|目录|列出",
    re.IGNORECASE,
)
_SHORT_ITEM_WORDS = 3
_ENUMERATION_MAX_WORDS = 12  # a longer sentence with a list in it describes one thing
_TOGETHER = re.compile(r"\b(?:between|among|amongst)\b", re.IGNORECASE)  # "between A, B and C": one relation


def rule_plan(query: str, namespace: str) -> Plan:
    """The plan for `query`: one search step unless it is a comparison, an enumeration or several questions."""
    steps: list[Step] = []
    previous: list[str] = []
    for part in split_parts(query):
        depends = tuple(previous) if previous and _BACK_REFERENCE.search(part) else ()
        context = " ".join(steps[int(dep[1:]) - 1].query for dep in depends)
        current: list[str] = []
        for item in split_items(part):
            if len(steps) >= MAX_STEPS:
                break
            step_id = f"s{len(steps) + 1}"
            steps.append(Step(step_id, "search", f"{item} {context}".strip() if context else item, depends))
            current.append(step_id)
        if current and _NAVIGATE.search(part) and len(steps) < MAX_STEPS:
            steps.append(Step(f"s{len(steps) + 1}", "navigate", part, tuple(current)))
        previous = current or previous
    if len(steps) <= 1 and all(step.action == "search" for step in steps):
        steps = [Step("s1", "search", query.strip())]  # one question: searched as asked, as classic search does
    return validate_plan(Plan(tuple(steps), "rules"), namespace)


class RulePlanner:
    """`rule_plan` as a PlanMaker."""

    name = "rules"

    def __call__(self, query: str, namespace: str) -> Plan:
        return rule_plan(query, namespace)


RULES = RulePlanner()


def split_parts(query: str) -> list[str]:
    """The separate questions of `query`, in order (one when it asks one thing)."""
    numbered = [_clean(item) for item in _NUMBERED.split(query)]
    if sum(1 for _ in _NUMBERED.finditer(query)) >= 2:  # "1) ... 2) ...": the items are the parts
        return [item for item in numbered if _HAS_WORD.search(item)] or [_clean(query)]
    parts = [_clean(_COMPARE_LEAD.sub("", part)) for part in _PART_END.split(query) if part]
    split = []
    for part in parts:
        if _HAS_WORD.search(part):  # a lone quote or bracket after a question mark is no question
            split.extend(_chinese_questions(part))
    return split or [_clean(query)]


def _chinese_questions(part: str) -> list[str]:
    """A Chinese part whose clauses (between `，` or `以及`) ask more than one thing: each question is the run of
    clauses up to one holding a question word; clauses after the last one stay with it."""
    pieces = _ZH_CLAUSE.split(part)
    questions: list[str] = []
    current = ""
    for at in range(0, len(pieces), 2):
        clause, separator = pieces[at], pieces[at + 1] if at + 1 < len(pieces) else ""
        current += clause
        following = pieces[at + 2] if at + 2 < len(pieces) else ""
        asks = _ZH_QUESTION.search(clause) and len(_clean(current)) >= 4
        # "X的原因是以及Y是哪个": a fill-in question without a question word, ended by 以及 before a new question
        fill_in = separator == "以及" and len(_clean(current)) >= 8 and _ZH_QUESTION.search(following)
        if asks or fill_in:
            questions.append(_clean(current))
            current = ""
        else:
            current += separator
    if current.strip() and questions:
        questions[-1] = _clean(questions[-1] + "，" + current)
    elif current.strip():
        questions.append(_clean(current))
    return questions if len(questions) > 1 else [part]


def split_items(part: str) -> list[str]:
    """One query per compared or enumerated item of a part, else the part itself."""
    if (questions := _COMPARE_QUESTIONS.match(part)) is not None:
        return [_clean(group) for group in questions.groups()]
    match = _COMPARE_EN.match(part) or _COMPARE_ZH.match(part)
    if match and match.re is _COMPARE_EN and _STARTS_A_QUESTION.match(part) and _VERSUS.search(part):
        match = None  # "what is the ratio of X versus Y": one question about a comparison, not two searches
    if match:
        groups = [group for group in match.groups() if group]
        if len(groups) == 2 and match.re is _COMPARE_ZH:
            return _chinese_enumeration("、".join(groups))
        if len(groups) == 2:
            return _with_shared_words([_clean(group) for group in groups])
    enumeration = _ENUMERATION_EN.match(part)
    if (
        enumeration
        and len(part.split()) <= _ENUMERATION_MAX_WORDS
        and not _TOGETHER.search(part)
        and all(len(item.split()) <= _SHORT_ITEM_WORDS for item in enumeration.groups()[1:])
    ):
        return _with_shared_words([_clean(item) for item in enumeration.groups()])
    if _ENUMERATION_ZH.search(part) and not _ZH_QUESTION.search(part):  # "A、B和C的价格", not "A、B以及哪个"
        return _chinese_enumeration(part)
    return [part]


def _with_shared_words(items: list[str]) -> list[str]:
    """Items after the first that are short borrow the first one's leading words: "the warranty of TX-100" and
    "TX-200" become "the warranty of TX-100" and "the warranty of TX-200"."""
    first = items[0].split()
    queries = [items[0]]
    for item in items[1:]:
        words = item.split()
        if len(words) <= _SHORT_ITEM_WORDS and len(first) > len(words):
            queries.append(" ".join(first[: len(first) - len(words)] + words))
        else:
            queries.append(item)
    return [query for query in queries if query]


def _chinese_enumeration(part: str) -> list[str]:
    """ "A、B和C的价格" -> the price of each: the words after the last item are shared by all."""
    pieces = _ENUMERATION_ZH.split(part)
    last = re.split(r"[和与及]", pieces[-1], maxsplit=1)
    items = [*pieces[:-1], *last]
    tail_match = re.match(r"^([^的]{1,12}?)(的.*)$", items[-1])
    tail = tail_match.group(2) if tail_match else ""
    if tail_match:
        items[-1] = tail_match.group(1)
    return [_clean(item + tail) for item in items if _clean(item)]


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" ,，。.、")
