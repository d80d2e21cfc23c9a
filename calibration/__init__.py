"""Calibration: the Mini-SWE-agent harness adapter, run records, admission, metrics and reports."""
