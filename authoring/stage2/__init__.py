"""Stage II: a coding agent turns an accepted blueprint into a task pair that proves itself before it is kept."""

import os

os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
