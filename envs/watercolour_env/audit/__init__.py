"""The reward audit: probes that a reward must not pay.

Formless families, copies, comment padding and a subject swap; `watercolour audit` sends them to a
deployment.
"""
