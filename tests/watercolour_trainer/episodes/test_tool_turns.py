"""`TurnCalls`: a turn's tool calls run at once across rollouts, answered to TRL's loop in its order.

The tools here are plain functions that record what they were given; a barrier that every call
of a turn must reach proves the calls overlap (run one after another, the first would wait
alone and the barrier break), whatever the machine's speed.
"""

import threading

from watercolour_trainer.episodes.tool_turns import BusyClock, TurnCalls


def call(sketch, name="paint"):
    return {"type": "function", "function": {"name": name, "arguments": {"sketch": sketch}}}


def assistant(*calls):
    return {"role": "assistant", "content": "", "tool_calls": list(calls)}


class Painter:
    """One rollout's tool: answers "painted X", or raises for a sketch "bad"."""

    def __init__(self, barrier=None):
        self.barrier, self.painted = barrier, []

    def paint(self, sketch):
        if self.barrier is not None:
            self.barrier.wait(timeout=10)
        self.painted.append(sketch)
        if sketch == "bad":
            raise ValueError("the gate refused it")
        return f"painted {sketch}"


def trl_turn(tool_dicts, completions, order):
    """What TRL 1.16's loop does with a turn: each rollout in `order`, each of its calls in turn."""
    answers = {}
    for i in order:
        for c in completions[i][-1]["tool_calls"]:
            try:
                answers.setdefault(i, []).append(tool_dicts[i][c["function"]["name"]](**c["function"]["arguments"]))
            except Exception as err:  # noqa: BLE001 (as TRL does)
                answers.setdefault(i, []).append({"error": str(err)})
    return answers


def test_the_calls_of_a_turn_overlap_and_each_rollout_gets_its_own_answers():
    barrier = threading.Barrier(3)  # three rollouts: all must be painting at once to pass
    painters = [Painter(barrier) for _ in range(3)]
    completions = [[assistant(call(f"s{i}"))] for i in range(3)]
    turn = TurnCalls([{"paint": p.paint} for p in painters], completions, workers=8)
    try:
        answers = trl_turn(turn.tool_dicts(), completions, order=[0, 1, 2])
    finally:
        turn.close()
    assert answers == {0: ["painted s0"], 1: ["painted s1"], 2: ["painted s2"]}
    assert [p.painted for p in painters] == [["s0"], ["s1"], ["s2"]]  # each painted once, no more


def test_a_rollouts_calls_keep_their_order_and_an_error_reaches_its_call():
    painters = [Painter(), Painter()]
    completions = [[assistant(call("a"), call("bad"), call("c"))], [assistant(call("d"))]]
    turn = TurnCalls([{"paint": p.paint} for p in painters], completions, workers=4)
    try:
        answers = trl_turn(turn.tool_dicts(), completions, order=[0, 1])
    finally:
        turn.close()
    assert answers[0] == ["painted a", {"error": "the gate refused it"}, "painted c"]
    assert painters[0].painted == ["a", "bad", "c"] and answers[1] == ["painted d"]


def test_the_next_turn_runs_only_the_new_calls():
    painters = [Painter(), Painter(), Painter()]
    completions = [[assistant(call(f"s{i}"))] for i in range(3)]
    turn = TurnCalls([{"paint": p.paint} for p in painters], completions, workers=4)
    try:
        trl_turn(turn.tool_dicts(), completions, order=[0, 1, 2])
        tools = turn.tool_dicts()
        # rollout 0 painted again; rollout 1 was dropped for length (its tool answer rolled back, its
        # message already run); rollout 2's new reply was cut to nothing (it ends on the tool answer)
        completions[0] += [{"role": "tool", "content": "painted s0"}, assistant(call("t0"))]
        completions[2] += [{"role": "tool", "content": "painted s2"}]
        answers = trl_turn(tools, completions, order=[0])
    finally:
        turn.close()
    assert answers == {0: ["painted t0"]}
    assert [p.painted for p in painters] == [["s0", "t0"], ["s1"], ["s2"]]


def test_a_call_the_turn_did_not_run_is_run_as_trl_would(caplog):
    painter = Painter()
    completions = [[assistant(call("a"))]]
    turn = TurnCalls([{"paint": painter.paint}], completions, workers=2)
    try:
        first = turn.tool_dicts()[0]["paint"](sketch="other")  # not the message's call
        second = turn.tool_dicts()[0]["paint"](sketch="a")
    finally:
        turn.close()
    assert (first, second) == ("painted other", "painted a")
    assert painter.painted == ["a", "other"]  # the turn ran "a" first, then "other" when asked
    assert "rollout 0 called paint as the turn did not run it" in caplog.text


def test_an_answer_trl_never_took_is_dropped_at_the_rollouts_next_message():
    painters = [Painter(), Painter()]
    completions = [[assistant(call("a0"))], [assistant(call("a1"))]]
    turn = TurnCalls([{"paint": p.paint} for p in painters], completions, workers=4)
    try:
        tools = turn.tool_dicts()
        tools[1]["paint"](sketch="a1")  # the turn runs a0 and a1; TRL never takes rollout 0's answer
        completions[0] += [{"role": "tool", "content": "error"}, assistant(call("b0"))]
        completions[1] += [{"role": "tool", "content": "painted a1"}, assistant(call("b1"))]
        answers = trl_turn(tools, completions, order=[1, 0])
    finally:
        turn.close()
    assert answers == {1: ["painted b1"], 0: ["painted b0"]}
    assert [p.painted for p in painters] == [["a0", "b0"], ["a1", "b1"]]  # b0 once, not twice


def test_unknown_tools_and_unreadable_arguments_are_left_to_trl():
    painter = Painter()
    unreadable = {"type": "function", "function": {"name": "paint", "arguments": "not json"}}
    odd_keys = {"type": "function", "function": {"name": "paint", "arguments": {1: "x"}}}  # `**` refuses it
    completions = [[assistant(call("x", name="erase"), unreadable, odd_keys, call("a"))]]
    turn = TurnCalls([{"paint": painter.paint}], completions, workers=2)
    try:
        assert turn.tool_dicts()[0]["paint"](sketch="a") == "painted a"
    finally:
        turn.close()
    assert painter.painted == ["a"]


def test_the_busy_clock_counts_overlapping_calls_once():
    spent = []
    clock = BusyClock(spent.append)
    inside, release = threading.Event(), threading.Event()

    def long_call():
        with clock.timing():
            inside.set()
            release.wait(timeout=30)

    worker = threading.Thread(target=long_call)
    worker.start()
    inside.wait(timeout=30)
    with clock.timing():  # starts and ends inside the long call: no stretch of its own
        pass
    assert spent == []
    release.set()
    worker.join()
    assert len(spent) == 1 and spent[0] > 0
    with clock.timing():
        pass
    assert len(spent) == 2  # a call alone is a stretch of its own


def test_one_worker_still_answers_every_call():
    painters = [Painter(), Painter()]
    completions = [[assistant(call("a"))], [assistant(call("b"))]]
    turn = TurnCalls([{"paint": p.paint} for p in painters], completions, workers=1)
    try:
        assert trl_turn(turn.tool_dicts(), completions, order=[1, 0]) == {1: ["painted b"], 0: ["painted a"]}
    finally:
        turn.close()
