"""Server side of the watercolour environment: render, gate, score, serve."""
