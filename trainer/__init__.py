"""GRPO training of a policy that paints with p5.brush, against the watercolour environment.

Rooms, lowest first: `record` (the run's rollouts and their analysis), `episodes` (an episode per
completion and its reward, revisions), `training` (GRPO and SFT on TRL). The commands sit on top:
`cli`, `demo`, `evaluate`, and the PEP 723 script `watercolour_grpo.py`. The data the package
ships lies beside them: `adapters/`, `configs/`, `corpus/`.
"""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
"""The package's folder, where `adapters/`, `configs/` and `corpus/` are."""
