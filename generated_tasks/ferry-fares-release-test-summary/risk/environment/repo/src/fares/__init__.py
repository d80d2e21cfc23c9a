"""Kittiwake Ferries fares."""

__version__ = "3.2.0"
