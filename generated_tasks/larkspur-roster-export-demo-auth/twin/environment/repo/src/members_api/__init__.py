"""Larkspur Climbing's member roster service."""
