"""Checkout fee rules (amounts in cents)."""
