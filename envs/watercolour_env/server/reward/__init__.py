"""The reward: the rubric (a weighted sum with one None rule) and one module per term."""
