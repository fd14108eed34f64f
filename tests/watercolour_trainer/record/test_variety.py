"""Variety of a run's sketches, on sketches whose every number is worked out by hand."""

import pytest

from watercolour_trainer.record.variety import (
    by_third,
    distinct_share,
    hex_colours,
    near_duplicate_share,
    step_variety,
)

# five lines each: A2 is A with other whitespace, B changes one line of A (4 shared of 6 in the
# union: 0.67), C shares no line with any
A = "a\nb\nc\nd\ne"
A2 = "  a\nb \n\nc\nd\ne"
B = "a\nb\nc\nd\nz"
C = "p\nq\nr\ns\nt"


def test_hex_colours_are_counted_once_in_lower_case_and_short_ones_expanded():
    sketch = 'brush.fill("#F08A6C", 1); brush.fill("#f08a6c"); brush.fill("#abc"); // #12345 #1234567'
    assert hex_colours(sketch) == {"#f08a6c", "#aabbcc"}


def test_distinct_counts_sketches_no_other_has_whitespace_dropped():
    assert distinct_share([A, A2, B, C]) == pytest.approx(2 / 4)  # A and A2 are one text
    assert distinct_share([A, B, C]) == 1.0 and distinct_share([]) is None


def test_near_duplicates_are_within_a_group_only():
    # A and A2: the same lines (1.0); A and B: 4 / 6 = 0.67, under 0.8; C shares nothing
    assert near_duplicate_share([[A, A2, B, C]]) == pytest.approx(2 / 4)
    assert near_duplicate_share([[A, B], [A2, C]]) == 0.0  # A and A2 in different groups
    assert near_duplicate_share([[A, B]], near=0.6) == 1.0
    assert near_duplicate_share([]) is None


def rollout(step, group, sketch, subject="a hibiscus"):
    return {"step": step, "group": group, "sketch": sketch, "subject": subject}


def test_a_step_and_the_thirds_by_subject():
    step = [rollout(1, 0, A), rollout(1, 0, A2), rollout(1, 1, 'x("#aaa")'), rollout(1, 1, None)]
    measured = step_variety(step)
    # lines: {a..e} twice, {x("#aaa")}: pairs 1.0, 0, 0 -> alike 1/3
    assert measured == {
        "sketches": 3,
        "alike": pytest.approx(1 / 3),
        "distinct": pytest.approx(1 / 3),
        "near_duplicates": pytest.approx(2 / 3),
        "colours": 1,
    }
    by_step = {
        1: [rollout(1, 0, A), rollout(1, 0, C, "a jellyfish")],
        2: [rollout(2, 0, '"#111"'), rollout(2, 0, '"#222"', "a jellyfish")],
        3: [rollout(3, 0, B), rollout(3, 1, B, "a jellyfish")],
    }
    rows = by_third(by_step, [[1], [2], [3]])
    assert [(r["subject"], r["third"]) for r in rows] == [
        (s, t) for s in ("all", "a hibiscus", "a jellyfish") for t in ("first", "middle", "last")
    ]
    everyone = rows[:3]
    assert [r["distinct"] for r in everyone] == [1.0, 1.0, 0.0]  # step 3: B twice
    assert [r["near_duplicates"] for r in everyone] == [0.0, 0.0, 0.0]  # step 3's two are in two groups
    assert [r["colours"] for r in everyone] == [0, 2, 0]  # no hex colour in steps 1 and 3
    jellyfish_last = rows[-1]
    assert jellyfish_last["sketches"] == 1 and jellyfish_last["alike"] is None  # one sketch: no pair


def test_one_subject_gives_the_all_rows_only():
    rows = by_third({1: [rollout(1, 0, A)]}, [[1], [], []])
    assert [r["subject"] for r in rows] == ["all"] * 3
    assert rows[1] == {"third": "middle", "subject": "all", "steps": 0, "sketches": 0} | dict.fromkeys(
        ("alike", "distinct", "near_duplicates", "colours")
    )
