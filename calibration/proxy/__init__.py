"""The model-API proxy: the only way a native harness in a task container reaches a model (see server.py)."""

GATEWAY_HOST = "model-gateway"
"""The model proxy's name on a run's internal network (its relay sidecar's alias)."""
GATEWAY_PORT = 8080
"""The port the relay listens on there."""
