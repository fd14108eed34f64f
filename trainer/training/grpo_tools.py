"""`ConcurrentToolsTrainer`: TRL's `GRPOTrainer`, each turn's tool calls run at once (issue 37).

`watercolour train` builds it in place of `GRPOTrainer`; without tools (no `--revisions`) it is
TRL's trainer unchanged. How a turn runs, and why: `tool_turns`.
"""

from __future__ import annotations

from trl import GRPOTrainer

from watercolour_trainer.episodes.tool_turns import TOOL_WORKERS, TurnCalls


class ConcurrentToolsTrainer(GRPOTrainer):
    """TRL's `GRPOTrainer`, with each turn's tool calls run at once across rollouts (`TurnCalls`).

    Attributes:
        tool_workers: the most calls of a turn in flight at once, in this process (`train` sets
            `--max-parallel`, as for the reward's own calls: the server queues at most its render
            workers plus `WATERCOLOUR_RENDER_MAX_QUEUE`, and refuses the rest as unscored).
    """

    tool_workers: int = TOOL_WORKERS

    def _tool_call_loop(self, prompts, prompt_ids, completion_ids, completions, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        tools = self._sync_tool_dicts
        turn = TurnCalls(tools, completions, self.tool_workers)
        self._sync_tool_dicts = turn.tool_dicts()
        try:
            return super()._tool_call_loop(prompts, prompt_ids, completion_ids, completions, *args, **kwargs)
        finally:
            self._sync_tool_dicts = tools
            turn.close()
