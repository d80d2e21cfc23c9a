"""Milk collection rounds for Fernhill Dairy Co-operative."""
