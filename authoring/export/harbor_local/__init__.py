"""What `harbor run` needs to run exported sides on an engine without Docker Hub: put this folder on Harbor's
PYTHONPATH and pass `--env v3ast_offline_env:OfflineDockerEnvironment` (see v3ast_offline_env.py)."""

from pathlib import Path

PYTHONPATH = Path(__file__).resolve().parent
OFFLINE_ENVIRONMENT = "v3ast_offline_env:OfflineDockerEnvironment"
