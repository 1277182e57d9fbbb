"""The version of estconf, read by the package build and by ``estconf --version``."""

__version__ = "0.2.0"
