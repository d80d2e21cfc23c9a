"""Validate exported task folders with Harbor's own TaskConfig and task linter (run under Harbor's Python)."""
import json
import sys
import warnings
from pathlib import Path

from harbor.lint.task import lint_task
from harbor.models.task.config import TaskConfig

out = {}
for task in sorted(p for p in Path(sys.argv[1]).iterdir() if (p / "task.toml").is_file()):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        config = TaskConfig.model_validate_toml((task / "task.toml").read_text())
    out[task.name] = {"steps": len(config.steps or []), "mode": config.verifier.environment_mode.value,
                      "lint": sorted({f"{f.rule}" for f in lint_task(task)})}
print(json.dumps(out))
