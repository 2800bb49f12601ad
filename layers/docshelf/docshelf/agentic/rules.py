"""The rule-based planner: works offline, splits composite questions into steps, keeps a single one whole.

- multi-part questions: parts end at `?`, `？`, `;`, `；`, at ` and ` (`以及`, a Chinese comma, `和`) followed by
  a new question, each part its own search; a part that starts by pointing back ("that", "it", "它", "该")
  depends on the part before and carries its words;
- comparisons ("compare X and Y", "X vs Y", "difference between X and Y", "比较X和Y", "X与Y的区别") and
  enumerations ("the warranty of A, B and C", "A、B和C") become one search per item, the shared words of the first
  item ("the warranty of") lent to the short ones after it;
- a part asking for a section, an overview or a list also gets a navigate step over what its search found.
"""

from __future__ import annotations

import re

from docshelf.agentic.plan import MAX_STEPS, Plan, Step, validate_plan

_QUESTION_WORDS = (
    r"what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|should|will|would|has|have"
)
_ZH_QUESTION = re.compile(r"什么|谁|哪|多少|几|如何|怎么|怎样|为什么|为何|吗|呢|是否|何时|何地")
_PART_END = re.compile(r"[?？;；]+|\s+and\s+(?=(?:" + _QUESTION_WORDS + r")\b)|以及", re.IGNORECASE)
_ZH_JOINERS = re.compile(r"[，,和与]")
_BACK_REFERENCE = re.compile(
    r"^(?:(?:" + _QUESTION_WORDS + r")\s+)*(?:\w+\s+)?(?:(?:" + _QUESTION_WORDS + r")\s+)*"
    r"(that|it|this|these|those|they)\b(?!\s+(?:is|are|was|were)\b)"
    r"|^(它|其|这|那|该)",
    re.IGNORECASE,
)
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
    r"\b(section|sections|chapter|chapters|overview|outline|summar(?:y|ise|ize)|table of contents|list all)\b"
    r"|章节|概述|概要|总结|目录|列出",
    re.IGNORECASE,
)
_SHORT_ITEM_WORDS = 3


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
    if not steps:
        steps.append(Step("s1", "search", query.strip()))
    return validate_plan(Plan(tuple(steps), "rules"), namespace)


class RulePlanner:
    """`rule_plan` as a PlanMaker."""

    name = "rules"

    def __call__(self, query: str, namespace: str) -> Plan:
        return rule_plan(query, namespace)


RULES = RulePlanner()


def split_parts(query: str) -> list[str]:
    """The separate questions of `query`, in order (one when it asks one thing)."""
    parts = [_clean(part) for part in _PART_END.split(query) if part]
    parts = [part for part in parts if part]
    split = []
    for part in parts:
        split.extend(_chinese_questions(part))
    return split or [_clean(query)]


def _chinese_questions(part: str) -> list[str]:
    """A Chinese part joined by `，`, `和`, `与` is split there only when every piece asks its own question."""
    if not _ZH_QUESTION.search(part):
        return [part]
    pieces = [_clean(piece) for piece in _ZH_JOINERS.split(part)]
    if len(pieces) > 1 and all(len(piece) >= 4 and _ZH_QUESTION.search(piece) for piece in pieces):
        return pieces
    return [part]


def split_items(part: str) -> list[str]:
    """One query per compared or enumerated item of a part, else the part itself."""
    match = _COMPARE_EN.match(part) or _COMPARE_ZH.match(part)
    if match:
        groups = [group for group in match.groups() if group]
        if len(groups) == 2 and match.re is _COMPARE_ZH:
            return _chinese_enumeration("、".join(groups))
        if len(groups) == 2:
            return _with_shared_words([_clean(group) for group in groups])
    enumeration = _ENUMERATION_EN.match(part)
    if enumeration and all(len(item.split()) <= _SHORT_ITEM_WORDS for item in enumeration.groups()[1:]):
        return _with_shared_words([_clean(item) for item in enumeration.groups()])
    if _ENUMERATION_ZH.search(part):
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
