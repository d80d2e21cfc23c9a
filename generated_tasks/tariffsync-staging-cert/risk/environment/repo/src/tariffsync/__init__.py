"""tariff-sync: carrier tariffs from the rates service, as CSV."""

__version__ = "2.3.0"
