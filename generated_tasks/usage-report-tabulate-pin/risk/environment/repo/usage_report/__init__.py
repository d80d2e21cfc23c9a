"""Monthly seat-usage report."""
