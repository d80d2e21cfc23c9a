"""The `v3ast` sub-commands of `authoring`, one module per noun (blueprints, stage1, pairs, redteam, doctor), mounted
lazily by `v3ast/cli.py`; `v3ast export` is in `calibration/export_cli.py` (its `--admitted` reads the admission
manifest)."""
