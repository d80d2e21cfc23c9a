"""Release-notes helper for meter-portal."""

__version__ = "1.3.0"
