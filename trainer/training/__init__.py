"""Training a policy: GRPO and SFT on TRL.

Its arguments, the policy's loading, and how a run stops, spreads over GPUs and publishes.
Imports `episodes` and `record`; neither imports it.
"""
