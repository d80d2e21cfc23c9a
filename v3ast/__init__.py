"""The `v3ast` command: one console script that mounts the sub-commands of each package."""
