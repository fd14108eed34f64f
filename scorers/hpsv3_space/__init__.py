"""The HPSv3 scorer Space: `app` (FastAPI), `tiny_model` (random models for tests and benchmarks)."""
