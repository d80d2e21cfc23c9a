"""The model-API proxy: the only way a native harness in a task container reaches a model (see server.py)."""
