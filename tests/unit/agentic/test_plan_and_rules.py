from __future__ import annotations

import pytest

from docshelf.agentic.plan import MAX_STEPS, Plan, PlanError, Step, plan_from_dict, topological_levels, validate_plan
from docshelf.agentic.rules import rule_plan


def queries(query: str) -> list[str]:
    return [step.query for step in rule_plan(query, "ns").steps if step.action == "search"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("compare the warranty of TX-100 and TX-200", ["the warranty of TX-100", "the warranty of TX-200"]),
        ("TX-100 vs TX-200", ["TX-100", "TX-200"]),
        ("difference between the TX-100 valve and the TX-200 valve", ["the TX-100 valve", "the TX-200 valve"]),
        ("the warranty of TX-100, TX-200 and TX-300", [f"the warranty of TX-{n}00" for n in (1, 2, 3)]),
        ("What is the price of apples? Who grows pears?", ["What is the price of apples", "Who grows pears"]),
        ("who wrote hamlet; when was macbeth staged", ["who wrote hamlet", "when was macbeth staged"]),
        ("What is the tax rate and how are fees collected?", ["What is the tax rate", "how are fees collected"]),
        ("北京的人口是多少？上海的面积是多少？", ["北京的人口是多少", "上海的面积是多少"]),
        ("谁发明了电话，电灯是谁发明的", ["谁发明了电话", "电灯是谁发明的"]),
        ("什么是光合作用以及叶绿素有什么作用", ["什么是光合作用", "叶绿素有什么作用"]),
        ("比较TX-100和TX-200的保修", ["TX-100的保修", "TX-200的保修"]),
        ("TX-100与TX-200的区别", ["TX-100", "TX-200"]),
        ("苹果、香蕉和橙子的价格", ["苹果的价格", "香蕉的价格", "橙子的价格"]),
        ("Who led the army and in what year did it surrender?", ["Who led the army", "in what year did it surrender"]),
        (
            "1) Texture analysis by computer. 2) Parsing of English",
            ["Texture analysis by computer", "Parsing of English"],
        ),
        (
            "華碩的標語為華碩品質，堅若磐石，和哪一句話，慕容皝將難民安置於何處?",
            ["華碩的標語為華碩品質，堅若磐石，和哪一句話", "慕容皝將難民安置於何處"],
        ),
        (
            "薛丁格獲得諾貝爾物理學獎的原因是以及Chesky是哪一個國家的廠牌?",
            ["薛丁格獲得諾貝爾物理學獎的原因是", "Chesky是哪一個國家的廠牌"],
        ),
        ("雌狸大约有多长以及波兰是什么时候加入欧盟？", ["雌狸大约有多长", "波兰是什么时候加入欧盟"]),
    ],
)
def test_rules_split_composite_questions(query: str, expected: list[str]) -> None:
    assert queries(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "How do I replace the pump seal?",
        "what torque do the flange bolts and nuts take",  # "and" inside one question
        "北京和上海之间的高铁需要多长时间？",  # 和 joining a noun phrase, one question
        "Which tickets does version 2.3.1 fix",
        "When did the partnership between Tesla, Lane and Vail form?",  # a relation among the list, not a list
        "What is the section of the Rhine Gorge recognized by UNESCO called?",  # "section" asks no navigation
        "在1990年，谁是美国总统？",  # a comma inside one Chinese question
        "板循蠻、廩君蠻以及哪一種蠻人在長江流域實力較為強大?",
        'At what wavelength do the bands peak?"',  # a closing quote after the question mark
    ],
)
def test_a_single_question_stays_one_step(query: str) -> None:
    plan = rule_plan(query, "ns")
    assert [step.action for step in plan.steps] == ["search"]
    assert plan.planner == "rules" and plan.fallback_reason is None


def test_a_part_pointing_back_depends_on_the_part_before_and_carries_its_words() -> None:
    plan = rule_plan("what changed in version 2.3.1 and which tickets does that fix?", "ns")
    first, second = plan.steps
    assert second.depends_on == (first.id,)
    assert "2.3.1" in second.query
    assert [[step.id for step in wave] for wave in topological_levels(plan)] == [["s1"], ["s2"]]


def test_an_overview_question_gets_a_navigate_step_over_its_search() -> None:
    plan = rule_plan("give an overview of the warranty section", "ns")
    assert [(step.action, step.depends_on) for step in plan.steps] == [("search", ()), ("navigate", ("s1",))]


def test_many_parts_are_capped() -> None:
    query = "? ".join(f"what is item {n}" for n in range(20))
    assert len(rule_plan(query, "ns").steps) == MAX_STEPS


def test_a_plan_naming_another_namespace_is_refused() -> None:
    with pytest.raises(PlanError, match="namespace 'other'"):
        plan_from_dict(
            {"steps": [{"id": "s1", "action": "search", "query": "salary", "namespace": "other"}]}, "bedrock", "ns"
        )
    same = {"steps": [{"id": "s1", "action": "search", "query": "x", "namespace": "ns"}]}
    plan = plan_from_dict(same, "bedrock", "ns")
    assert plan.steps[0].namespace == "ns"


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([], "at least one step"),
        ([Step("s1", "search", "a", ("s2",)), Step("s2", "search", "b", ("s1",))], "cycle"),
        ([Step("s1", "search", "a", ("s1",))], "cycle"),
        ([Step("s1", "search", "a"), Step("s1", "search", "b")], "unique"),
        ([Step("s1", "navigate", "a")], "must depend"),
        ([Step("s1", "search", "a", ("s9",))], "unknown steps"),
        ([Step("x", "search", "a")], "form s<number>"),
        ([Step("s1", "search", "   ")], "characters"),
        ([Step(f"s{n}", "search", "a") for n in range(1, MAX_STEPS + 2)], "at most"),
    ],
)
def test_invalid_plans_are_refused(steps: list[Step], message: str) -> None:
    with pytest.raises(PlanError, match=message):
        validate_plan(Plan(tuple(steps)), "ns")


@pytest.mark.parametrize(
    "data",
    [
        {"steps": "s1"},
        {"steps": [{"id": "s1", "action": "answer", "query": "x"}]},
        {"steps": [{"id": "s1", "action": "search", "query": 3}]},
        {"steps": [{"id": "s1", "action": "search", "query": "x", "depends_on": "s0"}]},
        {},
    ],
)
def test_malformed_plan_json_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(PlanError):
        plan_from_dict(data, "bedrock", "ns")


@pytest.mark.parametrize(
    ("query", "steps"),
    [
        ("What is X, and also how many genes does Y have?", ["What is X", "how many genes does Y have"]),
        ("Compare what is X and how many genes does Y have?", ["what is X", "how many genes does Y have"]),
        ("What is the mortality of SARS versus MERS in Asia? How big is the genome?",
         ["What is the mortality of SARS versus MERS in Asia", "How big is the genome"]),
        ("李白是谁，另外杜甫生于哪一年？", ["李白是谁", "杜甫生于哪一年"]),
        ("1. What is A? 2. Who made B?", ["What is A?", "Who made B?"]),
    ],
)  # fmt: skip
def test_composites_joined_in_more_ways_become_one_search_each(query: str, steps: list[str]) -> None:
    assert [step.query for step in rule_plan(query, "ns").steps] == steps
