"""The toolkit names a detector imports, as the Harbor verifier provides them (see verify.py)."""
