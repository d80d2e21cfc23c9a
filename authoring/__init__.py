"""Stage I and Stage II: taxonomy, blueprints, their git-audited store, task pairs and the sandbox that runs them."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("v3ast")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"
