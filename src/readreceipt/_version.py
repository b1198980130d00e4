"""The package version, kept in one place for pyproject and the user agent."""

__version__ = "0.1.0"
