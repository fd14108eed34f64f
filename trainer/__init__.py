"""GRPO training of a policy that paints with p5.brush, against the watercolour environment."""
