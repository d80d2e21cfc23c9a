"""Stage I and Stage II: taxonomy, blueprints, their git-audited store, task pairs and the sandbox that runs them."""

from authoring.version import toolkit_version

__version__ = toolkit_version()
