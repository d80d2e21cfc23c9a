"""Nightly restock report for the Düsseldorf warehouse."""
