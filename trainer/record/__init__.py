"""The run record and its analysis: what a run leaves, and what it says.

The rollouts folder, its paintings rebuilt, the gallery, the proxy against the gold, and
`watercolour analyze`'s numbers. The lowest room: it imports neither `episodes` nor `training`.
"""
