"""The project's small error hierarchy."""


class WatercolourError(Exception):
    """Base of every error this project raises on purpose."""


class ConfigError(WatercolourError):
    """A setting is missing, malformed or contradicts another; raised at start-up."""


class RenderError(WatercolourError):
    """The renderer itself failed (the browser could not start or died)."""
