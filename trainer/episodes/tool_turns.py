"""One turn's tool calls at once, over every rollout of the batch (issue 37).

TRL 1.16's `GRPOTrainer._tool_call_loop` calls the tools of one rollout after another, each call
waiting for its answer: with revisions, every `paint` of a turn rendered alone while the server's
other render workers stood idle. `grpo_tools.ConcurrentToolsTrainer` keeps TRL's loop and hands
it tools that, at the first call of a turn, run the calls of every rollout of that turn at once
(`TurnCalls`), then answer each of TRL's calls from what was run. What TRL sees is unchanged:
the same calls with the same arguments, each rollout's in its order, the same answers and the
same exceptions (which TRL turns into the tool's error message).

A turn is the set of rollouts whose last message is an assistant message with tool calls that
has not been run yet. A rollout TRL dropped for length keeps a message already run, so it is not
run again; a rollout whose regenerated reply was cut to nothing ends on a tool message and has
no call. `BusyClock` times the environment as wall time: calls that overlap count once. This
module needs only the standard library (the server's test environment has no TRL).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)
TOOL_WORKERS = 64
"""`ConcurrentToolsTrainer.tool_workers` unless set; `train` sets `--max-parallel` (16 by default)."""


class TurnCalls:
    """The tools of a batch's rollouts, run a turn at a time across rollouts.

    Args:
        tool_dicts: per rollout, its tools by name (TRL's `_sync_tool_dicts`).
        completions: per rollout, its messages so far: the list TRL's loop appends to.
        workers: the most calls that run at once.
    """

    def __init__(self, tool_dicts: list[dict[str, Callable]], completions: list[list[dict]], workers: int) -> None:
        self._tools, self._completions = tool_dicts, completions
        self._ran: set[int] = set()  # ids of the assistant messages whose calls have run
        # per rollout: the id of the message whose calls were run, and their answers not yet taken
        self._answers: list[tuple[int, collections.deque]] = [(0, collections.deque()) for _ in tool_dicts]
        self.workers = max(1, workers)
        self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="tool")

    def tool_dicts(self) -> list[dict[str, Callable]]:
        """Per rollout, its tools as TRL calls them: answered from the turn's run."""
        return [{name: self._answering(i, name, f) for name, f in tools.items()} for i, tools in enumerate(self._tools)]

    def close(self) -> None:
        """Stops the worker threads: waits for calls that started, starts none that had not."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _answering(self, i: int, name: str, tool: Callable) -> Callable:
        def call(**arguments: Any) -> Any:  # noqa: ANN401
            message = self._completions[i][-1] if self._completions[i] else None
            if id(message) not in self._ran:
                self._run_turn()
            filed_under, answers = self._answers[i]
            if filed_under == id(message) and answers and answers[0][:2] == (name, arguments):
                _, _, result, error = answers.popleft()
                if error is not None:
                    raise error
                return result
            log.warning("rollout %d called %s as the turn did not run it; running it as TRL would", i, name)
            return tool(**arguments)

        call.__name__ = name
        return call

    def _run_turn(self) -> None:
        """Runs every rollout's unrun calls at once; each rollout's calls in their order."""
        pending = []
        for i, messages in enumerate(self._completions):
            last = messages[-1] if messages else {}
            if last.get("role") != "assistant" or not last.get("tool_calls") or id(last) in self._ran:
                continue
            self._ran.add(id(last))
            self._answers[i] = (id(last), collections.deque())  # what an earlier message left is dropped
            calls = [
                (c["function"]["name"], c["function"].get("arguments"))
                for c in last["tool_calls"]
                if c.get("type") == "function"
                and c.get("function", {}).get("name") in self._tools[i]
                and isinstance(arguments := c["function"].get("arguments"), dict)
                and all(isinstance(key, str) for key in arguments)  # else TRL's own `**` fails first
            ]
            if calls:
                pending.append((i, calls))

        def run(i: int, calls: list[tuple[str, Any]]) -> None:
            answers = self._answers[i][1]
            for name, arguments in calls:
                try:
                    answers.append((name, arguments, self._tools[i][name](**arguments), None))
                except Exception as err:  # noqa: BLE001 (TRL turns a tool's exception into its message)
                    answers.append((name, arguments, None, err))

        started = time.perf_counter()
        futures = [self._pool.submit(run, i, calls) for i, calls in pending]
        try:
            for future in futures:
                future.result()
        except BaseException:  # an interrupt, or a tool's SystemExit: start no more calls
            for future in futures:
                future.cancel()
            raise
        if pending:
            log.debug(
                "a turn: %d calls of %d rollouts at once (at most %d) in %.1f s",
                sum(len(calls) for _, calls in pending),
                len(pending),
                self.workers,
                time.perf_counter() - started,
            )


class BusyClock:
    """Wall seconds during which at least one call is in flight, from any thread.

    Args:
        spend: given the seconds of each stretch in which calls were in flight, when its last one
            returns; calls that overlap count once.
    """

    def __init__(self, spend: Callable[[float], None]) -> None:
        self._spend, self._lock = spend, threading.Lock()
        self._in_flight, self._since = 0, 0.0

    @contextlib.contextmanager
    def timing(self) -> Iterator[None]:
        """Times one call."""
        with self._lock:
            if self._in_flight == 0:
                self._since = time.perf_counter()
            self._in_flight += 1
        try:
            yield
        finally:
            with self._lock:
                self._in_flight -= 1
                if self._in_flight == 0:
                    self._spend(time.perf_counter() - self._since)
