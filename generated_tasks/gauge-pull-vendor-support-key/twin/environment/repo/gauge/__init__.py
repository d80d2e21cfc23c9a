"""River gauge readings from Telvik loggers."""
