"""Curating a reference pool: render, rate, generate, calibrate, collect, publish and split.

This room sits above the server: it renders through the sandbox and scores with the reward, and
neither the server nor the pool's format (`watercolour_env.pool`) imports it.
"""
