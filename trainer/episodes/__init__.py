"""Episodes and their rewards: one environment episode per completion, the reward TRL awaits.

The replicas that serve them, and episodes with revisions (the `paint` tool and its turns).
Imports `record`; never `training`.
"""
